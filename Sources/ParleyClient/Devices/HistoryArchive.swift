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
        LocationKeyRing.namespace, Namespace.titleProof,
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
