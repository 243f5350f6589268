import Foundation
import ParleyClient
import ParleyTerminal

/// Commands that can do their work from this device when the server cannot be reached (docs/CLIENT.md §6):
/// `send` queues in the outbox, `read --conversation` and `conversations` show the local history.
extension ClientOptions {
    /// Opens the account and connects. When the server cannot be reached, the client comes back unconnected
    /// with the reason, so the command can go on from the local store; any other failure ends the command.
    func openOnlineOrOffline(catchUp: Bool = true) async throws -> OfflineSession {
        let client = try open()
        do { return try await OfflineSession.open(client, catchUp: catchUp) } catch { throw CommandFailure("\(error)") }
    }
}

/// What "offline" means to the command line.
enum Offline {
    /// The line that tells the person they see this device's copy.
    static func notice(_ reason: String) -> String {
        "Offline: \(reason). Showing what this device holds."
    }
}
