import Crypto
import ParleyLocation

/// Berry Picker Tracker links kept in the account's vault (namespace `bpt_link`), so a person is followed
/// again without handing the link, and its key, over a second time. One record per tracker user, named by
/// the SHA-256 of the user id: the database's clear columns do not say whom this account follows.
extension ParleyClient {
    /// The `records` namespace.
    static let bptLinkNamespace = "bpt_link"

    /// Stores a `bpt://` link's key, user id and name, replacing an earlier link for the same user.
    @discardableResult
    public nonisolated func rememberBPTLink(_ text: String) throws(ClientError) -> BPTShareLink {
        let link: BPTShareLink
        do { link = try BPTShareLink(parsing: text) } catch { throw .invalidInput("\(error)") }
        try database.write { try $0.put(Self.bptLinkNamespace, Self.bptRecordName(link.userID), Array(link.link.utf8)) }
        return link
    }

    /// Every remembered link, sorted by user id.
    public nonisolated func bptLinks() throws(ClientError) -> [BPTShareLink] {
        try database.read { try $0.all(Self.bptLinkNamespace) }
            .compactMap { try? BPTShareLink(parsing: String(decoding: $0.value, as: UTF8.self)) }
            .sorted { $0.userID < $1.userID }
    }

    /// A record's name: the user id's SHA-256 in hex.
    static func bptRecordName(_ userID: String) -> String {
        SHA256.hash(data: Array(userID.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
