/// Parley's own share link: `parley://location?v=2&owner=ID&key=KEY[&server=HOST:PORT][&name=NAME]`
/// (docs/FORMATS.md §13.4).
///
/// Handing out a link gives the key to whoever reads it; the better way is sending the key inside an
/// end-to-end encrypted message. The link still names a version so readers refuse what they cannot use.
public struct ParleyLocationLink: Sendable {
    /// Account id of the person sharing their location.
    public var owner: UInt64
    /// The v2 key.
    public var key: LocationKey
    /// The Parley server to read from, when not the follower's own.
    public var server: String?
    /// The sharer's display name, for showing only.
    public var name: String?

    /// Longest link accepted.
    public static let maxLength = 2048

    /// A link for an owner and key.
    public init(owner: UInt64, key: LocationKey, server: String? = nil, name: String? = nil) {
        self.owner = owner
        self.key = key
        self.server = server
        self.name = name
    }

    /// The link text; values are encoded once with `encodeURIComponent`.
    public var link: String {
        var text = "parley://location?v=2&owner=\(owner)&key=\(key.base64URL)"
        if let server { text += "&server=\(URIComponent.encode(server))" }
        if let name { text += "&name=\(URIComponent.encode(name))" }
        return text
    }

    /// Parses a link; anything but version 2, a decimal owner and a 32-byte key is refused.
    public init(parsing text: String) throws(LocationError) {
        guard text.utf8.count <= Self.maxLength else { throw .invalidLink("longer than \(Self.maxLength) characters") }
        let start = "parley://location?"
        guard text.lowercased().hasPrefix(start) else { throw .invalidLink("not a parley://location link") }
        var values: [String: String] = [:]
        for pair in URIComponent.queryPairs(text.dropFirst(start.count)) {
            guard values[pair.name] == nil else { throw .invalidLink("\(pair.name) appears twice") }
            guard let value = URIComponent.decode(pair.value) else { throw .invalidLink("\(pair.name) has a broken %-escape") }
            values[pair.name] = value
        }
        guard let version = values["v"] else { throw .invalidLink("no version (v=2)") }
        guard version == "2" else { throw .invalidLink("unsupported version \(version.prefix(8)) (made by a newer Parley?)") }
        guard let ownerText = values["owner"], ownerText.utf8.allSatisfy({ (48...57).contains($0) }),
              let owner = UInt64(ownerText)
        else { throw .invalidLink("owner must be a decimal account id") }
        guard let keyText = values["key"] else { throw .invalidLink("no key") }
        self.owner = owner
        key = try LocationKey(base64URL: keyText)
        server = values["server"]
        name = values["name"]
        if let server, server.isEmpty || server.utf8.count > 255 { throw .invalidLink("server must be 1…255 bytes") }
        if let name, name.utf8.count > 256 { throw .invalidLink("name longer than 256 bytes") }
    }
}
