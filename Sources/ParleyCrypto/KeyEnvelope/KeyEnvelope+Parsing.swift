import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import _CryptoExtras

extension KeyEnvelope {
    /// The fields of an envelope whose structure is valid.
    struct Parts {
        let header: [UInt8]
        let salt: [UInt8]
        let iterations: UInt32
        let nonce: [UInt8]
        let ciphertext: [UInt8]
        let tag: [UInt8]
    }

    /// Whether `bytes` have the structure of an envelope `seal` makes (magic, lengths, iteration bounds), without a
    /// password: what a server that stores envelopes for recovery can check before it keeps one.
    public static func isWellFormed(_ bytes: [UInt8]) -> Bool {
        (try? KeyEnvelope(bytes: bytes).parse()) != nil
    }

    /// Splits the bytes into fields, refusing anything `seal` could not have produced.
    func parse() throws(KeyEnvelopeError) -> Parts {
        var reader = ByteReader(bytes)
        do {
            guard try reader.read(4) == Self.magic else { throw KeyEnvelopeError.corruptEnvelope }
            let salt = try reader.read(Self.saltLength)
            let iterations = try reader.readUInt32()
            guard (Self.minimumOpenIterations...Self.maximumIterations).contains(iterations) else {
                throw KeyEnvelopeError.corruptEnvelope
            }
            let nonce = try reader.read(Self.nonceLength)
            let sealedLength = reader.remaining - Self.tagLength
            guard sealedLength >= 1 else { throw KeyEnvelopeError.corruptEnvelope }
            let ciphertext = try reader.read(sealedLength)
            let tag = try reader.read(Self.tagLength)
            return Parts(
                header: Array(bytes[0..<Self.headerLength]), salt: salt, iterations: iterations,
                nonce: nonce, ciphertext: ciphertext, tag: tag)
        } catch {
            throw .corruptEnvelope
        }
    }

    /// PBKDF2-HMAC-SHA256 of the NFC-normalised UTF-8 password.
    static func deriveKey(
        password: String, salt: [UInt8], iterations: UInt32
    ) throws(KeyEnvelopeError) -> SymmetricKey {
        let normalized = password.nfcBytes
        do {
            return try KDF.Insecure.PBKDF2.deriveKey(
                from: normalized, salt: salt, using: .sha256, outputByteCount: 32,
                unsafeUncheckedRounds: Int(iterations))
        } catch {
            throw .cryptoFailure
        }
    }
}
