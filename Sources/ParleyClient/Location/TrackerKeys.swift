import Crypto
import Foundation
import ParleyLocation
import ParleyCrypto

/// This account's own Berry Picker Tracker key in the vault (namespace `bpt_key`), so a tracker app
/// user can follow it: made once, shown without its key, replaced by a rotation, forgotten on delete.
/// Talking to the tracker server is the caller's job; these only keep what it answered.
public struct TrackerKeys: Sendable {
    typealias Dependencies = HasDatabase & HasRandom & HasClock & Sendable
    let dependencies: any Dependencies

    /// The stored tracker identity, nil when none was made.
    public func ownKey() throws(ClientError) -> BPTOwnKey? {
        guard let bytes = try dependencies.database.read({ try $0.get(BPTOwnKeyRecord.namespace, BPTOwnKeyRecord.record) }) else { return nil }
        guard let record = try? JSONDecoder().decode(BPTOwnKeyRecord.self, from: Data(bytes)) else {
            throw .storage("the stored tracker key is unreadable")
        }
        return try record.opened()
    }

    /// Makes a fresh 16-byte key (as the app does) for the tracker user `userID` on `server` and stores it.
    /// `replacing` is the user id of the identity being rotated away, nil for a first one: when the vault
    /// holds anything else (another command got there first) nothing changes and the error says so.
    @discardableResult
    public func makeKey(userID: String, server: String, name: String?, replacing: String?) throws(ClientError) -> BPTOwnKey {
        do { try BPTCreatedID.check(userID) } catch { throw .invalidInput("the tracker server gave an unusable user id") }
        if let name, name.utf8.count > 256 { throw .invalidInput("the name must be at most 256 bytes") }
        let key: LegacyKey
        do { key = try LegacyKey(bytes: dependencies.random.bytes(16)) } catch { throw .storage("cannot make a tracker key") }
        let own = BPTOwnKey(key: key, userID: userID, server: server, name: name, routeID: nil, created: dependencies.clock.now())
        try dependencies.database.write { writer in
            let current = try self.ownKey()?.userID
            guard current == replacing else {
                throw ClientError.invalidInput(current == nil ? "this account has no tracker key to rotate; make one with 'parley location bpt-key create'"
                    : "this account already has a tracker key; see it with 'parley location bpt-key show', replace it with 'bpt-key rotate'")
            }
            try writer.put(BPTOwnKeyRecord.namespace, BPTOwnKeyRecord.record, Array(try JSONEncoder().encode(BPTOwnKeyRecord(own))))
        }
        return own
    }

    /// Remembers the route positions go to (nil: start a new one next time), if `userID` is still the stored identity.
    public func setRoute(_ routeID: String?, userID: String) throws(ClientError) {
        try dependencies.database.write { writer in
            guard let own = try self.ownKey(), own.userID == userID else {
                throw ClientError.invalidInput("the tracker key changed while positions were being posted; post again")
            }
            try writer.put(BPTOwnKeyRecord.namespace, BPTOwnKeyRecord.record,
                           Array(try JSONEncoder().encode(BPTOwnKeyRecord(own.with(routeID: routeID)))))
        }
    }

    /// Forgets the tracker identity; false when there was none.
    @discardableResult
    public func forgetKey() throws(ClientError) -> Bool {
        try dependencies.database.write { writer in
            guard try self.ownKey() != nil else { return false }
            try writer.delete(BPTOwnKeyRecord.namespace, BPTOwnKeyRecord.record)
            return true
        }
    }

    // Berry Picker Tracker links kept in the account's vault (namespace `bpt_link`), so a person is followed
    // again without handing the link, and its key, over a second time. One record per tracker user, named by
    // the SHA-256 of the user id: the database's clear columns do not say whom this account follows.

    /// The `records` namespace.
    static let bptLinkNamespace = "bpt_link"

    /// Stores a `bpt://` link's key, user id and name, replacing an earlier link for the same user.
    @discardableResult
    public func rememberLink(_ text: String) throws(ClientError) -> BPTShareLink {
        let link: BPTShareLink
        do { link = try BPTShareLink(parsing: text) } catch { throw .invalidInput("\(error)") }
        try dependencies.database.write { try $0.put(Self.bptLinkNamespace, Self.bptRecordName(link.userID), Array(link.link.utf8)) }
        return link
    }

    /// Every remembered link, sorted by user id.
    public func links() throws(ClientError) -> [BPTShareLink] {
        try dependencies.database.read { try $0.all(Self.bptLinkNamespace) }
            .compactMap { try? BPTShareLink(parsing: String(decoding: $0.value, as: UTF8.self)) }
            .sorted { $0.userID < $1.userID }
    }

    /// A record's name: the user id's SHA-256 in hex.
    static func bptRecordName(_ userID: String) -> String {
        Hex.lower(SHA256.hash(data: Array(userID.utf8)))
    }
}
