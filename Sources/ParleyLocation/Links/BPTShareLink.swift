/// A Berry Picker Tracker share link: `bpt://?cryptoKey=…&userId=…&username=…`.
///
/// The app percent-encodes each value twice (its key's `+ / =` appear as `%252B %252F %253D`);
/// links pasted by hand or by other tools are often encoded once. Both parse; ``link`` produces
/// the app's form.
public struct BPTShareLink: Sendable {
    /// The followed user's key.
    public var key: LegacyKey
    /// The followed user's id on the tracker's server (12 characters there).
    public var userID: String
    /// The display name the sharer chose, if the link carries one.
    public var username: String?

    /// Longest link accepted.
    public static let maxLength = 4096

    /// A link for a key, a user id and an optional name.
    public init(key: LegacyKey, userID: String, username: String? = nil) {
        self.key = key
        self.userID = userID
        self.username = username
    }

    /// The link exactly as the app writes it: every value encoded twice with `encodeURIComponent`.
    public var link: String {
        func twice(_ text: String) -> String { URIComponent.encode(URIComponent.encode(text)) }
        var text = "bpt://?cryptoKey=\(twice(key.base64))&userId=\(twice(userID))"
        if let username { text += "&username=\(twice(username))" }
        return text
    }

    /// Parses a link whose values are percent-encoded once or twice.
    public init(parsing text: String) throws(LocationError) {
        guard text.utf8.count <= Self.maxLength else { throw .invalidLink("longer than \(Self.maxLength) characters") }
        guard text.lowercased().hasPrefix("bpt:") else { throw .invalidLink("not a bpt: link") }
        guard let question = text.firstIndex(of: "?") else { throw .invalidLink("no query (?cryptoKey=…)") }
        var encoded: [String: Substring] = [:]
        for pair in URIComponent.queryPairs(text[text.index(after: question)...]) where encoded[pair.name] == nil {
            encoded[pair.name] = pair.value
        }
        guard let rawKey = encoded["cryptoKey"] else { throw .invalidLink("no cryptoKey") }
        guard let rawUser = encoded["userId"] else { throw .invalidLink("no userId") }
        // A base64 key always has `=` padding (16 and 32 bytes both), so after one decoding a
        // twice-encoded key still holds `%3D`: that tells how every value of the link was encoded.
        guard let keyOnce = URIComponent.decode(rawKey) else { throw .invalidLink("cryptoKey has a broken %-escape") }
        let twice = keyOnce.contains("%")
        func decoded(_ raw: Substring, _ name: String) throws(LocationError) -> String {
            guard let once = URIComponent.decode(raw) else { throw .invalidLink("\(name) has a broken %-escape") }
            guard twice else { return once }
            guard let second = URIComponent.decode(once) else { throw .invalidLink("\(name) has a broken %-escape") }
            return second
        }
        key = try LegacyKey(base64: decoded(rawKey, "cryptoKey"))
        userID = try decoded(rawUser, "userId")
        guard !userID.isEmpty, userID.utf8.count <= 128 else { throw .invalidLink("userId must be 1…128 bytes") }
        if let rawName = encoded["username"] {
            let name = try decoded(rawName, "username")
            guard name.utf8.count <= 256 else { throw .invalidLink("username longer than 256 bytes") }
            username = name
        } else {
            username = nil
        }
    }
}
