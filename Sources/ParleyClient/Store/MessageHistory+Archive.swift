import Foundation
import GRDB

/// The history a new device receives from the one that authorizes it (docs/CLIENT.md §9): made here, imported there.
extension MessageHistory {
    /// This device's history as an archive, newest messages first kept when it is too large.
    func exportArchive() throws(ClientError) -> HistoryArchive {
        try dependencies.database.read { reader in
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
    func importArchive(_ archive: HistoryArchive) throws(ClientError) {
        let allowed = Set(HistoryArchive.namespaces)
        try dependencies.database.write { writer in
            for record in archive.records {
                let isTitle = record.namespace == Namespace.state && HistoryArchive.statePrefixes.contains { record.key.hasPrefix($0) }
                // A hostile or newer archive must not plant sessions, prekeys or a cursor.
                guard allowed.contains(record.namespace) || isTitle else { continue }
                try writer.put(record.namespace, record.key, Array(record.value))
            }
            for message in archive.messages { try Self.store(message, in: writer) }
        }
    }
}
