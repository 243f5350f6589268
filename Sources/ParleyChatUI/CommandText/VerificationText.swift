import ParleyClient

/// The text `parley verify EMAIL` prints.
public enum VerificationText {
    /// The safety number in rows of four groups, both fingerprints, the status, and what to do next.
    public static func lines(_ shown: ContactVerification) -> [String] {
        let groups = shown.safetyNumber.grouped.split(separator: " ")
        var lines = ["Safety number with \(shown.email):"]
        for row in stride(from: 0, to: groups.count, by: 4) { lines.append("    " + groups[row..<min(row + 4, groups.count)].joined(separator: " ")) }
        lines += [
            "Your fingerprint:  \(shown.localFingerprint.grouped)",
            "Their fingerprint: \(shown.contactFingerprint.grouped)",
            "Status: \(shown.status.label)",
        ]
        if shown.sendingBlocked {
            lines.append("⚠ Their identity key changed after you verified it; sending to them is blocked. If the number matches what they see, run 'parley verify mark \(shown.email)' (or 'parley verify accept \(shown.email)' to go on without verifying).")
        } else if shown.status != .verified {
            lines.append("Compare the number with \(shown.email) in person or on a call, then run 'parley verify mark \(shown.email)'; or scan their code: 'parley verify scan IMAGE'.")
        }
        return lines
    }
}

/// `--json` output of the verify commands.
public struct VerificationOutput: Encodable, Sendable {
    /// The contact's account.
    public let accountID: Int64
    /// The contact's e-mail.
    public let email: String
    /// verified, unverified or changed.
    public let status: String
    /// Whether sending to them is blocked until the change is accepted.
    public let sendingBlocked: Bool
    /// The safety number's digits.
    public let safetyNumber: String
    /// This account's fingerprint digits.
    public let yourFingerprint: String
    /// Their fingerprint digits.
    public let theirFingerprint: String
    /// The text of this account's verification QR code.
    public let qrText: String

    /// The fields of `shown`.
    public init(_ shown: ContactVerification) {
        accountID = shown.accountID
        email = shown.email
        status = shown.status.rawValue
        sendingBlocked = shown.sendingBlocked
        safetyNumber = shown.safetyNumber.digits
        yourFingerprint = shown.localFingerprint.digits
        theirFingerprint = shown.contactFingerprint.digits
        qrText = shown.localPayload.qrText
    }
}
