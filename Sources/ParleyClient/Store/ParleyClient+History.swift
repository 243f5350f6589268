import Crypto
import Foundation
import GRDB

extension ParleyClient {
    /// Seals and stores a message, and indexes its words for search.
    func storeMessage(_ message: Message, in writer: ClientDatabase.Writer) throws {
        let body = try writer.seal(Array(try JSONEncoder().encode(message)), binding: "message/\(message.id)")
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

    /// One stored message.
    public func storedMessage(_ id: Int64) throws(ClientError) -> Message? {
        try database.read { reader in
            guard let body = try Data.fetchOne(reader.db, sql: "SELECT body FROM messages WHERE message_id = ?", arguments: [id]) else {
                return nil
            }
            return try JSONDecoder().decode(Message.self, from: Data(reader.open(Array(body), binding: "message/\(id)")))
        }
    }

    /// The newest `limit` messages of a conversation, oldest first.
    public func messages(in conversationID: Int64, limit: Int = 100) throws(ClientError) -> [Message] {
        try database.read { reader in
            try Row.fetchAll(reader.db, sql: """
                SELECT message_id, body FROM messages WHERE conversation_id = ? ORDER BY timestamp DESC LIMIT ?
                """, arguments: [conversationID, limit])
                .map { row in
                    let id: Int64 = row["message_id"]
                    return try JSONDecoder().decode(Message.self, from: Data(reader.open(Array(row["body"] as Data), binding: "message/\(id)")))
                }
                .filter { !$0.isHiddenControl }   // a stored location key is not something to read
                .reversed()
        }
    }

    /// Full-text search over this device's decrypted history: messages containing every word of `query`,
    /// newest first. The index holds only keyed hashes of words, sealed like everything else.
    public func search(_ query: String, in conversationID: Int64? = nil, limit: Int = 50) throws(ClientError) -> [Message] {
        let terms = SearchTerms.terms(in: query)
        guard !terms.isEmpty else { return [] }
        let ids: [Int64] = try database.read { reader in
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
            guard let message = try storedMessage(id), conversationID == nil || message.conversationID == conversationID else { continue }
            // The index holds truncated HMACs; confirm on the opened text (it may have been deleted since).
            if SearchTerms.terms(in: message.text).isSuperset(of: terms) { out.append(message) }
        }
        return Array(out.sorted { $0.timestamp > $1.timestamp }.prefix(limit))
    }

    /// Applies `change` to a stored message and reports it.
    func updateMessage(_ id: Int64, _ change: (inout Message) -> Void) throws(ClientError) {
        guard var message = try storedMessage(id) else { return }
        change(&message)
        let updated = message
        try database.write { writer in try self.storeMessage(updated, in: writer) }
        broadcaster.yield(.messageUpdated(updated))
    }
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
