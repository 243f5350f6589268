import Foundation
import ParleyMailFormats

/// What the store knows of one correspondent's keys (docs/MAIL.md §6.1 and §6.3): Autocrypt Level 1's peer state,
/// plus the last Web Key Directory answer. Sealed in the store; every field but `address` may be absent.
public struct PeerState: Sendable, Codable, Equatable {
    public var v = 1
    public var address: String
    public var lastSeen: Int64?
    public var autocryptTimestamp: Int64?
    public var autocryptKey: Data?
    public var preferEncrypt: Bool?
    public var gossipTimestamp: Int64?
    public var gossipKey: Data?
    public var wkdKey: Data?
    public var wkdFetched: Int64?

    public init(address: String) {
        self.address = address.lowercased()
    }

    /// Level 1 §2.3's update for a message from this peer at `date` (its effective date) carrying `header` (a
    /// valid one with a usable key) or none. Returns whether anything changed.
    @discardableResult
    public mutating func observe(_ header: AutocryptHeader?, at date: Int64) -> Bool {
        if let autocryptTimestamp, date < autocryptTimestamp { return false }
        guard let header else {
            guard date > (lastSeen ?? Int64.min) else { return false }
            lastSeen = date
            return true
        }
        lastSeen = max(lastSeen ?? date, date)
        autocryptTimestamp = date
        autocryptKey = Data(header.keydata)
        preferEncrypt = header.preferMutual
        return true
    }

    /// Level 1 §2.4's update for gossip about this peer in a message at `date`. Returns whether it changed.
    @discardableResult
    public mutating func observeGossip(_ header: AutocryptHeader, at date: Int64) -> Bool {
        if let gossipTimestamp, date <= gossipTimestamp { return false }
        gossipTimestamp = date
        gossipKey = Data(header.keydata)
        return true
    }

    /// The key to encrypt to and where it came from: Autocrypt, else gossip, else a Web Key Directory answer
    /// younger than `wkdLifetime` seconds at `now`.
    public func key(now: Int64, wkdLifetime: Int64 = PeerState.wkdLifetime) -> (bytes: [UInt8], origin: KeyOrigin, since: Int64)? {
        if let autocryptKey { return (Array(autocryptKey), .autocrypt, autocryptTimestamp ?? 0) }
        if let gossipKey { return (Array(gossipKey), .gossip, gossipTimestamp ?? 0) }
        if let wkdKey, let wkdFetched, now - wkdFetched < wkdLifetime { return (Array(wkdKey), .wkd, wkdFetched) }
        return nil
    }

    /// How long a Web Key Directory answer is used before it is asked again: 7 days.
    public static let wkdLifetime: Int64 = 7 * 24 * 3600
}
