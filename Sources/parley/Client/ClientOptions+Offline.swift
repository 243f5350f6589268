import Foundation
import ParleyClient

/// Commands that can do their work from this device when the server cannot be reached (docs/CLIENT.md §6):
/// `send` queues in the outbox, `read --conversation` and `conversations` show the local history.
extension ClientOptions {
    /// Opens the account and connects. When the server cannot be reached, the client comes back unconnected
    /// with the reason, so the command can go on from the local store; any other failure ends the command.
    func openOnlineOrOffline(catchUp: Bool = true) async throws -> (client: ParleyClient, offline: String?) {
        let client = try open()
        do {
            try await client.connect(reconnect: false, catchUp: catchUp)
            return (client, nil)
        } catch {
            guard let reason = Offline.reason(error) else {
                await client.disconnect()
                throw CommandFailure("\(error)")
            }
            await client.disconnect()
            return (client, reason)
        }
    }
}

/// What "offline" means to the command line.
enum Offline {
    /// The reason when `error` means the server cannot be reached right now (as opposed to an answer, such as
    /// a refused login or a TLS key that does not match the pin, which must not be worked around).
    static func reason(_ error: ClientError) -> String? {
        switch error {
        case .unreachable, .timeout, .disconnected, .notConnected: error.description
        default: nil
        }
    }

    /// Tries to connect (reconnecting afterwards) until the server answers: following waits for the server
    /// rather than ending. Pauses grow from half a second to five.
    static func waitForServer(_ client: ParleyClient) async throws {
        var pause = 0.5
        while true {
            try await Task.sleep(for: .seconds(pause))
            do {
                try await client.connect(reconnect: true, catchUp: false)
                return
            } catch {
                guard reason(error) != nil else { throw CommandFailure("\(error)") }
            }
            pause = min(pause * 2, 5)
        }
    }

    /// The line that tells the person they see this device's copy.
    static func notice(_ reason: String) -> String {
        "Offline: \(reason). Showing what this device holds."
    }

    /// The direct conversation with `email` this device already knows, found without the server.
    static func directConversation(with email: String, client: ParleyClient) async throws -> Int64? {
        let email = email.lowercased()
        guard let contact = try client.profiles.contacts().first(where: { $0.contact.email?.lowercased() == email })?.contact else { return nil }
        return try await client.conversations().first { $0.kind == "direct" && $0.members.contains(contact.accountID) }?.id
    }
}
