import Foundation
import GRDB


/// The messages accepted for sending and not yet acknowledged by the server: one sealed row each, keyed by the
/// client message id (which makes a resend after a lost acknowledgement harmless), so a crash, a dropped
/// connection or a server restart never loses one. Sending them is the client's; keeping them is this.
struct Outbox: Sendable {
    typealias Dependencies = HasDatabase & Sendable
    let dependencies: any Dependencies

    /// Keeps `entry` until it is removed.
    func add(_ entry: OutboxEntry) throws(ClientError) {
        let id = entry.content.id
        let body = Array(try! JSONEncoder().encode(entry))
        try dependencies.database.write { writer in
            try writer.db.execute(sql: "INSERT INTO outbox (client_message_id, created, body) VALUES (?, ?, ?)",
                                  arguments: [id, entry.created, Data(try writer.seal(body, binding: Self.binding(id)))])
        }
    }

    /// Every waiting message, oldest first. A row that no longer opens (it cannot have been written by this
    /// account's key) is left out rather than stopping the rest.
    func pending() throws(ClientError) -> [OutboxEntry] {
        try dependencies.database.read { reader in
            try Row.fetchAll(reader.db, sql: "SELECT client_message_id, body FROM outbox ORDER BY created, client_message_id")
                .compactMap { row in
                    let id: String = row["client_message_id"]
                    return try? JSONDecoder().decode(OutboxEntry.self, from: Data(reader.open(Array(row["body"] as Data), binding: Self.binding(id))))
                }
        }
    }

    /// How many messages wait.
    func count() throws(ClientError) -> Int {
        try dependencies.database.read { reader in try Int.fetchOne(reader.db, sql: "SELECT COUNT(*) FROM outbox") ?? 0 }
    }

    /// Forgets the message `clientMessageID` (refused for good).
    func remove(_ clientMessageID: String) throws(ClientError) {
        try dependencies.database.write { try Self.remove(clientMessageID, in: $0) }
    }

    /// Forgets the message `clientMessageID` in the transaction that stores it as sent, so it is in exactly one place.
    static func remove(_ clientMessageID: String, in writer: ClientDatabase.Writer) throws {
        try writer.db.execute(sql: "DELETE FROM outbox WHERE client_message_id = ?", arguments: [clientMessageID])
    }

    /// What each row's seal is bound to, so a row cannot be moved under another id.
    private static func binding(_ id: String) -> String { "outbox/\(id)" }
}
