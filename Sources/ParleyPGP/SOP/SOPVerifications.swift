#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// SOP's verification lines and the time bounds that filter them.
public enum SOPVerifications {
    /// A good verification as SOP prints it, `DATE SIGNING-FPR PRIMARY-FPR mode:MODE`; nil for one not good.
    public static func line(_ verification: Verification) -> String? {
        guard verification.isGood, let key = verification.signingKeyFingerprint, let cert = verification.certificateFingerprint else { return nil }
        let date = Date(timeIntervalSince1970: TimeInterval(verification.signature.creationTime ?? 0))
        let mode = verification.signature.type == .text ? "text" : "binary"
        return "\(UTCTime(date).iso8601) \(Hex.upper(key)) \(Hex.upper(cert)) mode:\(mode)"
    }

    /// The lines of the good verifications, each ending in a newline (a `--verifications-out` file).
    public static func file(_ verifications: [Verification]) -> [UInt8] {
        Array(verifications.compactMap(line).map { $0 + "\n" }.joined().utf8)
    }

    /// A `--not-before`/`--not-after`/`--validate-at` value: an ISO-8601 time, `now`, or `-` (no bound, as nil);
    /// anything else is 37.
    public static func time(_ value: String?, now: UInt32) throws -> UInt32? {
        guard let value, value != "-" else { return nil }
        if value == "now" { return now }
        if let date = UTCTime.parse(value) { return UInt32(clamping: Int64(date.timeIntervalSince1970)) }
        throw SOPFailure(.unsupportedOption, "cannot read the time \(value)")
    }

    /// The verifications whose signature time is within the bounds.
    public static func within(_ verifications: [Verification], notBefore: UInt32?, notAfter: UInt32?) -> [Verification] {
        verifications.filter { verification in
            let created = verification.signature.creationTime ?? 0
            return created >= (notBefore ?? 0) && created <= (notAfter ?? UInt32.max)
        }
    }

    /// The lines of the good verifications within the bounds; none is SOP's 3.
    public static func required(_ verifications: [Verification], notBefore: UInt32? = nil, notAfter: UInt32? = nil) throws -> [String] {
        let lines = within(verifications, notBefore: notBefore, notAfter: notAfter).compactMap(line)
        guard !lines.isEmpty else { throw SOPFailure(.noSignature, "no valid signature") }
        return lines
    }
}
