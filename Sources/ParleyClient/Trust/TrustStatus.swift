import Foundation
import ParleyCrypto

/// How far this device trusts a contact's identity key (docs/CLIENT.md §9).
public enum TrustStatus: String, Sendable, Codable, Equatable, CaseIterable {
    /// No identity key seen yet, or the key changed and the user has not accepted or verified the new one.
    case unverified
    /// Trust on first use: the first key seen (or a changed key the user accepted), never compared.
    case trusted
    /// The user compared safety numbers or scanned the contact's code for the current key.
    case verified

    /// A short label for lists: `unverified`, `trusted`, `verified ✓`.
    public var label: String {
        switch self {
        case .unverified: "unverified"
        case .trusted: "trusted"
        case .verified: "verified ✓"
        }
    }
}

/// What this device records about a contact's key beyond the identity registry (sealed, `trust/ACCOUNT`).
struct TrustRecord: Codable, Sendable, Equatable {
    /// The status; absent records mean `trusted` when a key is known, else `unverified`.
    var status: TrustStatus
    /// The key the contact had before the last change (for the warning), if any.
    var previousKey: [UInt8]?
    /// A changed key offered by a contact the user had verified: nothing is sent to them or read from
    /// them until the user accepts it (or verifies it).
    var pendingKey: [UInt8]?

    /// Whether sending to this contact is blocked.
    var sendingBlocked: Bool { pendingKey != nil }

    /// The record of `accountID` as `writer`'s transaction sees it (inside the receive path's own transaction).
    static func read(_ accountID: Int64, in writer: ClientDatabase.Writer) throws -> TrustRecord? {
        try writer.reader.get(Namespace.trust, String(accountID)).flatMap { try? JSONDecoder().decode(TrustRecord.self, from: Data($0)) }
    }
}

/// Everything `parley verify EMAIL` shows about one contact.
public struct ContactVerification: Sendable, Equatable {
    /// The contact's account id.
    public let accountID: Int64
    /// The contact's e-mail (the id their fingerprint is computed with).
    public let email: String
    /// The trust status of the contact's current key.
    public let status: TrustStatus
    /// Whether the contact's key changed after the user verified it (sending is blocked until accepted).
    public let sendingBlocked: Bool
    /// The 60-digit number both people compare.
    public let safetyNumber: SafetyNumber
    /// This account's fingerprint (its identity key with its e-mail).
    public let localFingerprint: Fingerprint
    /// The contact's fingerprint for the key this device holds (the new key while a change is pending).
    public let contactFingerprint: Fingerprint
    /// This account's own QR payload, for the contact to scan.
    public let localPayload: VerificationPayload
}

extension Namespace {
    /// Trust records (`TrustRecord` JSON) by account id.
    static let trust = "trust"
    /// Messages held until the user accepts their sender's changed key (`HeldMessage` JSON) by message id.
    static let held = "held"
}
