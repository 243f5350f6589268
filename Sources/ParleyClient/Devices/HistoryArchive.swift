import Foundation
import GRDB

/// What a signed-in device hands a newly paired one: its decrypted history and the records that give
/// it meaning (conversations, contacts, identity keys). Travels only sealed (FORMATS.md §14).
struct HistoryArchive: Codable {
    struct Record: Codable {
        var namespace: String
        var key: String
        var value: Data
    }

    var v: Int
    var records: [Record]
    var messages: [Message]
    /// Older messages left out to stay within the size limit.
    var omittedMessages: Int

    /// The record namespaces that travel; sessions, prekeys and sender keys never do (they are per device).
    /// Location keys travel too: this account's own (so every device posts under the key followers hold) and
    /// the ones of people it follows.
    static let namespaces = [
        Namespace.conversation, Namespace.contact, Namespace.identity, Namespace.verified, Namespace.trust, AvatarNamespace.name,
        LocationKeyRing.namespace,
    ]
    /// Group titles live under `state`, beside per-device cursors that must not travel.
    static let statePrefixes = ["title/"]
    /// The archive's size budget: the server's 32 MiB minus room for sealing and the records.
    static let messageBudget = 30 * 1024 * 1024
    /// Plaintext per sealed chunk.
    static let chunkSize = 192 * 1024

    func encoded() -> [UInt8] { Array(try! JSONEncoder().encode(self)) }

    static func decode(_ bytes: [UInt8]) throws(ClientError) -> HistoryArchive {
        guard let archive = try? JSONDecoder().decode(HistoryArchive.self, from: Data(bytes)), archive.v == 1 else {
            throw .badResponse("the other device sent a history archive this version cannot read")
        }
        return archive
    }
}

extension ParleyClient {
    /// This device's history as an archive, newest messages first kept when it is too large.
    func exportHistory() throws(ClientError) -> HistoryArchive {
        try database.read { reader in
            var records: [HistoryArchive.Record] = []
            for namespace in HistoryArchive.namespaces {
                records += try reader.all(namespace).map { .init(namespace: namespace, key: $0.key, value: Data($0.value)) }
            }
            records += try reader.all(Namespace.state)
                .filter { item in HistoryArchive.statePrefixes.contains { item.key.hasPrefix($0) } }
                .map { .init(namespace: Namespace.state, key: $0.key, value: Data($0.value)) }
            var messages: [Message] = [], used = 0, omitted = 0
            let rows = try Row.fetchCursor(reader.db, sql: "SELECT message_id, body FROM messages ORDER BY timestamp DESC")
            while let row = try rows.next() {
                let id: Int64 = row["message_id"]
                let plain = try reader.open(Array(row["body"] as Data), binding: "message/\(id)")
                guard used + plain.count <= HistoryArchive.messageBudget else { omitted += 1; continue }
                used += plain.count
                messages.append(try JSONDecoder().decode(Message.self, from: Data(plain)))
            }
            return HistoryArchive(v: 1, records: records, messages: messages.reversed(), omittedMessages: omitted)
        }
    }

    /// Stores an archive from the device that authorized this one, in one transaction.
    func importHistory(_ archive: HistoryArchive) throws(ClientError) {
        let allowed = Set(HistoryArchive.namespaces)
        try database.write { writer in
            for record in archive.records {
                let isTitle = record.namespace == Namespace.state && HistoryArchive.statePrefixes.contains { record.key.hasPrefix($0) }
                // A hostile or newer archive must not plant sessions, prekeys or a cursor.
                guard allowed.contains(record.namespace) || isTitle else { continue }
                try writer.put(record.namespace, record.key, Array(record.value))
            }
            for message in archive.messages { try self.storeMessage(message, in: writer) }
        }
    }
}
