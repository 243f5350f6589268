import Crypto
import Foundation
import GRDB

/// This device's decrypted history: each message sealed under the account's key (bound to its id) with a blind
/// word index for search, in the local database. Deciding what arrives or goes out is the client's; keeping and
/// finding it is this.
public struct MessageHistory: Sendable {
    typealias Dependencies = HasDatabase & Sendable
    let dependencies: any Dependencies

    /// What a local entry says: written by this device to tell its person something (a key change, a group's
    /// members), never sent anywhere.
    struct LocalEntry {
        let conversationID: Int64
        let senderID: Int64
        let kind: String
        let text: String
    }

    /// Stores `entries` as local entries within `writer`'s transaction: ids below every id in use (the server never
    /// uses negative ones), the first lowest so entries of one time show in the order given, and new until shown.
    static func storeLocal(_ entries: [LocalEntry], at now: Int64, in writer: ClientDatabase.Writer) throws -> [Message] {
        let first = min(try Int64.fetchOne(writer.db, sql: "SELECT MIN(message_id) FROM messages") ?? 0, 0) - Int64(entries.count)
        return try entries.enumerated().map { offset, local in
            let entry = Message(
                id: first + Int64(offset), conversationID: local.conversationID, senderID: local.senderID, senderDevice: 0,
                timestamp: now, text: local.text, kind: local.kind, replyTo: nil, forwardedFrom: nil, reactions: [:],
                pinned: false, deleted: false, deliveredTo: [], undecryptable: false)
            try store(entry, in: writer)
            try writer.put(Namespace.unseen, String(entry.id), [])
            return entry
        }
    }

    /// Seals and stores `message` in `writer`'s transaction, and indexes its words for search.
    static func store(_ message: Message, in writer: ClientDatabase.Writer) throws {
        let body = try writer.seal(Array(try JSONEncoder().encode(message)), binding: binding(message.id))
        try writer.db.execute(
            sql: "INSERT OR REPLACE INTO messages (message_id, conversation_id, timestamp, body) VALUES (?, ?, ?, ?)",
            arguments: [message.id, message.conversationID, message.timestamp, Data(body)])
        try writer.db.execute(sql: "DELETE FROM search_terms WHERE message_id = ?", arguments: [message.id])
        guard !message.deleted else { return }
        let key = try writer.lock.withKey { $0.subkey(purpose: "search") }
        for term in SearchTerms.terms(in: message.text) {
            try writer.db.execute(sql: "INSERT OR IGNORE INTO search_terms (term, message_id) VALUES (?, ?)",
                                  arguments: [Data(SearchTerms.blind(term, key: key)), message.id])
        }
    }

    /// Seals and stores `message` in a transaction of its own.
    func store(_ message: Message) throws(ClientError) {
        try dependencies.database.write { try Self.store(message, in: $0) }
    }

    /// Applies `change` to a stored message and stores it again, in one transaction (two changes at once, a reaction
    /// and a pin, both land); the changed message, or nil when there is none.
    func update(_ id: Int64, _ change: (inout Message) -> Void) throws(ClientError) -> Message? {
        try dependencies.database.write { writer in
            guard var message = try Self.message(id, in: writer.reader) else { return nil }
            change(&message)
            try Self.store(message, in: writer)
            return message
        }
    }

    /// One stored message, or nil when this device has none by that id.
    public func message(_ id: Int64) throws(ClientError) -> Message? {
        try dependencies.database.read { try Self.message(id, in: $0) }
    }

    /// Whether this device holds a message `senderID` sent at `timestamp` (the server's time, unique per message):
    /// a forward names its original by these, and only a device that has the original can tell the claim is true.
    public func holds(senderID: Int64, timestamp: Int64) throws(ClientError) -> Bool {
        try dependencies.database.read { reader in
            let ids = try Int64.fetchAll(reader.db, sql: "SELECT message_id FROM messages WHERE timestamp = ?", arguments: [timestamp])
            return try ids.contains { try Self.message($0, in: reader)?.senderID == senderID }
        }
    }

    private static func message(_ id: Int64, in reader: ClientDatabase.Reader) throws -> Message? {
        guard let body = try Data.fetchOne(reader.db, sql: "SELECT body FROM messages WHERE message_id = ?", arguments: [id]) else {
            return nil
        }
        return try JSONDecoder().decode(Message.self, from: Data(reader.open(Array(body), binding: binding(id))))
    }

    /// The newest `limit` messages of a conversation, oldest first, without hidden control messages (a stored
    /// location key or retry request is not something to read, and does not take a place of the page).
    public func messages(in conversationID: Int64, limit: Int = 100) throws(ClientError) -> [Message] {
        guard limit > 0 else { return [] }
        return try dependencies.database.read { reader in
            var shown: [Message] = []
            var offset = 0
            while shown.count < limit {
                let rows = try Row.fetchAll(reader.db, sql: """
                    SELECT message_id, body FROM messages WHERE conversation_id = ? ORDER BY timestamp DESC LIMIT ? OFFSET ?
                    """, arguments: [conversationID, limit, offset])
                for row in rows {
                    let id: Int64 = row["message_id"]
                    let message = try JSONDecoder().decode(Message.self, from: Data(reader.open(Array(row["body"] as Data), binding: Self.binding(id))))
                    if !message.isHiddenControl, shown.count < limit { shown.append(message) }
                }
                if rows.count < limit { break }
                offset += rows.count
            }
            return shown.reversed()
        }
    }

    /// Messages containing every word of `query`, newest first. The index holds only keyed hashes of words, so
    /// each hit is confirmed on the opened text (the hashes are truncated; the message may have changed since).
    public func search(_ query: String, in conversationID: Int64? = nil, limit: Int = 50) throws(ClientError) -> [Message] {
        let terms = SearchTerms.terms(in: query)
        guard !terms.isEmpty else { return [] }
        let ids: [Int64] = try dependencies.database.read { reader in
            let key = try reader.lock.withKey { $0.subkey(purpose: "search") }
            var found: Set<Int64>?
            for term in terms {
                let hits = Set(try Int64.fetchAll(reader.db, sql: "SELECT message_id FROM search_terms WHERE term = ?",
                                                  arguments: [Data(SearchTerms.blind(term, key: key))]))
                found = found.map { $0.intersection(hits) } ?? hits
            }
            return Array(found ?? [])
        }
        var out: [Message] = []
        for id in ids {
            guard let message = try message(id), conversationID == nil || message.conversationID == conversationID else { continue }
            if SearchTerms.terms(in: message.text).isSuperset(of: terms) { out.append(message) }
        }
        return Array(out.sorted { $0.timestamp > $1.timestamp }.prefix(limit))
    }

    /// What each message's seal is bound to, so a row cannot be moved under another id.
    private static func binding(_ id: Int64) -> String { "message/\(id)" }
}

/// Words for the blind search index.
enum SearchTerms {
    /// Lower-cased, diacritic-folded words of two or more characters.
    static func terms(in text: String) -> Set<String> {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        return Set(folded.split { !$0.isLetter && !$0.isNumber }.map(String.init).filter { $0.count >= 2 })
    }

    /// HMAC-SHA256 of the word under the search subkey, truncated to 16 bytes.
    static func blind(_ term: String, key: SymmetricKey) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array(term.utf8), using: key).prefix(16))
    }
}
