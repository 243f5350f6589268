/// The outcome of checking one signature in a message or a detached signature.
public struct Verification: Sendable {
    /// The signature as read.
    public let signature: Signature
    /// Fingerprint of the certificate that made it, when one of the given certificates did.
    public let certificateFingerprint: [UInt8]?
    /// Fingerprint of the (sub)key that made it.
    public let signingKeyFingerprint: [UInt8]?
    /// Why it is not good, or nil when it verified.
    public let failure: PGPError?

    /// Whether the signature verified with a valid signing key of a given certificate.
    public var isGood: Bool { failure == nil && certificateFingerprint != nil }

    /// Checks `signature` over `data` against `certificates` at the signature's creation time.
    static func check(_ signature: Signature, data: [UInt8], certificates: [Certificate], now: UInt32) -> Verification {
        check(signature, certificates: certificates, now: now) { try signature.verify(data: data, by: $0) }
    }

    /// Checks `signature` against `certificates`, `verify` doing the cryptography for one candidate key
    /// (over data in memory, or over a streamed document's hash).
    static func check(_ signature: Signature, certificates: [Certificate], now: UInt32,
                      verify: (PublicKey) throws -> Void) -> Verification {
        guard signature.type == .binary || signature.type == .text else {
            return Verification(signature: signature, certificateFingerprint: nil, signingKeyFingerprint: nil,
                                failure: .badSignature("not a document signature"))
        }
        let created = signature.creationTime ?? 0
        guard created <= now, !signature.isExpired(at: now) else {
            return Verification(signature: signature, certificateFingerprint: nil, signingKeyFingerprint: nil,
                                failure: .badSignature("signature is from the future or expired"))
        }
        var failure = PGPError.badSignature("no given certificate made this signature")
        for certificate in certificates {
            for key in certificate.signingKeys(at: created) where signature.issuerKeyID == nil || signature.issuerKeyID == key.keyID {
                do {
                    try verify(key)
                    return Verification(signature: signature, certificateFingerprint: certificate.fingerprint,
                                        signingKeyFingerprint: key.fingerprint, failure: nil)
                } catch let error as PGPError {
                    failure = error
                } catch {
                    failure = .badSignature("signature does not verify")
                }
            }
        }
        return Verification(signature: signature, certificateFingerprint: nil, signingKeyFingerprint: nil, failure: failure)
    }

    /// Checks a detached signature (armored or binary, one or more signature packets) over `data`.
    public static func detached(_ signatureBytes: [UInt8], data: [UInt8], certificates: [Certificate], now: UInt32) throws -> [Verification] {
        let packets = try PacketParser.parse(Armor.unwrap(signatureBytes))
        let signatures = try packets.filter { $0.tag == .signature }.map { try Signature(packetBody: $0.body) }
        guard !signatures.isEmpty else { throw PGPError.malformed("no signature packets") }
        return signatures.map { check($0, data: data, certificates: certificates, now: now) }
    }
}
