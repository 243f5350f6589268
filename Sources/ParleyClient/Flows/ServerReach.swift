import Foundation

/// Whether the server can be reached, for a use of the account that can go on from this device when it
/// cannot (docs/CLIENT.md §6): sending into the outbox, reading the stored history.
public enum ServerReach {
    /// The reason when `error` means the server cannot be reached right now, as opposed to an answer (a refused
    /// login, a TLS key that does not match the pin) that must not be worked around.
    public static func offlineReason(_ error: ClientError) -> String? {
        error.isAboutReachingTheServer ? error.description : nil
    }

    /// Connects `client`; nil when connected, the reason when the server cannot be reached. Any other failure
    /// is thrown, the client disconnected first.
    public static func connect(_ client: ParleyClient, reconnect: Bool, catchUp: Bool) async throws(ClientError) -> String? {
        do {
            try await client.connect(reconnect: reconnect, catchUp: catchUp)
            return nil
        } catch {
            guard let reason = offlineReason(error) else {
                await client.disconnect()
                throw error
            }
            return reason
        }
    }

    /// Tries to connect (reconnecting afterwards) until the server answers, so following waits for the server
    /// rather than ending. Pauses grow from `firstPause` to `longestPause` seconds; a failure that is not
    /// about reaching the server is thrown, and so is cancellation.
    public static func waitForServer(_ client: ParleyClient, firstPause: Double = 0.5, longestPause: Double = 5) async throws {
        var pause = firstPause
        while true {
            try await Task.sleep(for: .seconds(pause))
            do {
                try await client.connect(reconnect: true, catchUp: false)
                return
            } catch {
                guard offlineReason(error) != nil else { throw error }
            }
            pause = min(pause * 2, longestPause)
        }
    }
}
