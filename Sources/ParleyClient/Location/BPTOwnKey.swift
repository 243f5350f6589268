import Foundation
import ParleyLocation

/// This account's Berry Picker Tracker identity: the key its positions are sealed with for tracker
/// followers, the user id a tracker server gave it, and that server. Kept sealed in the vault
/// (namespace `bpt_key`, record `own`, docs/CLIENT.md §11); its key leaves only inside a share link.
public struct BPTOwnKey: Sendable, Equatable {
    /// The key, 16 bytes as the app makes them.
    public let key: LegacyKey
    /// The user id the tracker server assigned (`POST /new-user`).
    public let userID: String
    /// The tracker server's base URL.
    public let server: String
    /// The name followers see in the link, if one was chosen.
    public let name: String?
    /// The route positions go to, once one was started (`POST /start-route`).
    public let routeID: String?
    /// When this key was made, ms.
    public let created: Int64

    /// The link a Berry Picker Tracker user opens to follow this account (the app's twice-encoded form).
    public var link: BPTShareLink { BPTShareLink(key: key, userID: userID, username: name) }

    public static func == (lhs: BPTOwnKey, rhs: BPTOwnKey) -> Bool {
        lhs.key.base64 == rhs.key.base64 && lhs.userID == rhs.userID && lhs.server == rhs.server
            && lhs.name == rhs.name && lhs.routeID == rhs.routeID && lhs.created == rhs.created
    }

    /// The same identity posting to another route.
    func with(routeID: String?) -> BPTOwnKey {
        BPTOwnKey(key: key, userID: userID, server: server, name: name, routeID: routeID, created: created)
    }
}

/// The stored form, version 1: `{v, key (standard base64), user_id, server, name?, route_id?, created}`.
struct BPTOwnKeyRecord: Codable {
    static let namespace = "bpt_key"
    static let record = "own"
    static let version = 1

    var v: Int
    var key: String
    var user_id: String
    var server: String
    var name: String?
    var route_id: String?
    var created: Int64

    init(_ own: BPTOwnKey) {
        v = Self.version
        key = own.key.base64
        user_id = own.userID
        server = own.server
        name = own.name
        route_id = own.routeID
        created = own.created
    }

    /// The identity, or why the record cannot be used (never quoting the key).
    func opened() throws(ClientError) -> BPTOwnKey {
        guard v == Self.version else { throw .storage("the stored tracker key was written by a newer Parley") }
        guard let legacy = try? LegacyKey(base64: key) else { throw .storage("the stored tracker key is damaged") }
        return BPTOwnKey(key: legacy, userID: user_id, server: server, name: name, routeID: route_id, created: created)
    }
}
