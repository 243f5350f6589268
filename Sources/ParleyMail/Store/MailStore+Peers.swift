import Crypto
import Foundation
import GRDB
import ParleyMailFormats
import ParleyPGP

/// Correspondents' learned keys (docs/MAIL.md §6.3): one sealed `PeerState` per address, under an id that does
/// not show the address.
extension MailStore {
    func peerID(_ address: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(address.lowercased().utf8), using: peerIDKey)
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: mac.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// The stored state of `address`, if any.
    public func peer(_ address: String) throws(MailboxError) -> PeerState? {
        let id = peerID(address)
        let sealed = try read { db in try Data.fetchOne(db, sql: "SELECT state FROM peers WHERE id = ?", arguments: [id]) }
        return try sealed.map { sealed throws(MailboxError) in try openSealed(PeerState.self, sealed, binding: "mail/peer/\(id)") }
    }

    /// The ids of every stored peer (no state opened).
    func peerIDs() throws(MailboxError) -> Set<String> {
        Set(try read { db in try String.fetchAll(db, sql: "SELECT id FROM peers") })
    }

    /// Every stored peer state.
    public func peers() throws(MailboxError) -> [PeerState] {
        let rows = try read { db in try Row.fetchAll(db, sql: "SELECT id, state FROM peers") }
        var states: [PeerState] = []
        for row in rows {
            let id: String = row["id"]
            states.append(try openSealed(PeerState.self, row["state"], binding: "mail/peer/\(id)"))
        }
        return states.sorted { $0.address < $1.address }
    }

    /// Applies `change` to `address`'s state inside the transaction `db`; writes only when it says it changed.
    func updatePeer(_ address: String, in db: Database, _ change: (inout PeerState) -> Bool) throws {
        let id = peerID(address)
        let binding = "mail/peer/\(id)"
        var state = PeerState(address: address)
        if let sealed = try Data.fetchOne(db, sql: "SELECT state FROM peers WHERE id = ?", arguments: [id]) {
            state = try openSealed(PeerState.self, sealed, binding: binding)
        }
        guard change(&state) else { return }
        try db.execute(sql: "INSERT OR REPLACE INTO peers (id, state) VALUES (?, ?)", arguments: [id, try seal(state, binding: binding)])
    }

    /// Takes in what received messages said (senders' headers, or gossip), in one transaction.
    public func learn(_ receipts: [AutocryptReceipt], gossip: Bool = false) throws(MailboxError) {
        guard !receipts.isEmpty else { return }
        try write { db in try apply(receipts, gossip: gossip, in: db) }
    }

    func apply(_ receipts: [AutocryptReceipt], gossip: Bool, in db: Database) throws {
        for receipt in Self.newest(receipts) {
            try updatePeer(receipt.address, in: db) { state in
                if gossip { return receipt.header.map { state.observeGossip($0, at: receipt.date) } ?? false }
                return state.observe(receipt.header, at: receipt.date)
            }
        }
    }

    /// Per address, the newest receipt with a header (the last of equals) and then the newest without one: applied
    /// in that order, Level 1's rules leave the same state as applying every receipt in turn, with one update each.
    static func newest(_ receipts: [AutocryptReceipt]) -> [AutocryptReceipt] {
        var withHeader: [String: AutocryptReceipt] = [:], without: [String: AutocryptReceipt] = [:]
        var order: [String] = []
        for receipt in receipts {
            if withHeader[receipt.address] == nil && without[receipt.address] == nil { order.append(receipt.address) }
            if receipt.header != nil {
                if receipt.date >= (withHeader[receipt.address]?.date ?? Int64.min) { withHeader[receipt.address] = receipt }
            } else if receipt.date > (without[receipt.address]?.date ?? Int64.min) {
                without[receipt.address] = receipt
            }
        }
        return order.flatMap { [withHeader[$0], without[$0]].compactMap { $0 } }
    }

    /// Keeps a Web Key Directory answer for `address` (the certificate's binary form) as of `time`.
    public func remember(wkd certificate: Certificate, for address: String, at time: Int64) throws(MailboxError) {
        let bytes = Data(certificate.packets.encoded)
        try write { db in
            try updatePeer(address, in: db) { state in
                state.wkdKey = bytes
                state.wkdFetched = time
                return true
            }
        }
    }

    /// The learned key for `address` that `send` may use at `now` (docs/MAIL.md §6), checked again: it must still
    /// be able to encrypt.
    public func learnedKey(for address: String, now: Int64) throws(MailboxError) -> LearnedKey? {
        guard let state = try peer(address) else { return nil }
        return Self.usableKey(state, now: now)
    }

    /// Every learned key usable at `now`, by address.
    public func learnedKeys(now: Int64) throws(MailboxError) -> [LearnedKey] {
        try peers().compactMap { Self.usableKey($0, now: now) }
    }

    static func usableKey(_ state: PeerState, now: Int64) -> LearnedKey? {
        guard let found = state.key(now: now),
              let certificate = LearnedKey.usable(found.bytes, for: state.address, mustName: found.origin == .wkd, now: UInt32(clamping: now))
        else { return nil }
        return LearnedKey(address: state.address, origin: found.origin, certificate: certificate, since: found.since)
    }
}
