#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The cleartext signature framework (RFC 4880 §7): readable text, dash-escaped, followed by an
/// armored text-mode signature over its canonical form.
///
/// Both directions stream (`sign(from:to:signers:now:)`, `verify(from:to:certificates:now:)`); the
/// functions on strings are the same code over memory.
public enum CleartextSignature {
    /// The algorithms a streamed verification hashes the text with, since which one a signature uses
    /// is known only at its end.
    static let verifiedHashes: [HashAlgorithm] = [.sha256, .sha512, .sha384, .sha1]

    /// Makes a cleartext-signed message of `text` with each signer (SHA-256).
    public static func sign(_ text: String, signers: [UnlockedKey], now: UInt32) throws -> String {
        let output = PGPMemoryOutput()
        try sign(from: PGPMemoryInput(Array(text.utf8)), to: output, signers: signers, now: now)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// Reads a cleartext-signed message: the text (dash-escaping undone, every line ended by LF, as
    /// Sequoia and GnuPG print it), the canonical bytes the signatures sign, and the signatures.
    public static func read(_ message: String) throws -> (text: String, signed: [UInt8], signatures: [Signature]) {
        let text = PGPMemoryOutput()
        var signed: [UInt8] = []
        let signatures = try CleartextReader.read(from: PGPMemoryInput(Array(message.utf8)), to: text) { signed += $0 }
        return (String(decoding: text.bytes, as: UTF8.self), signed, signatures)
    }

    /// Verifies a cleartext-signed message against `certificates`.
    public static func verify(_ message: String, certificates: [Certificate], now: UInt32) throws -> (text: String, verifications: [Verification]) {
        let (text, signed, signatures) = try read(message)
        return (text, signatures.map { Verification.check($0, data: signed, certificates: certificates, now: now) })
    }

    /// The most canonical text kept for v6 (salted) cleartext signatures, whose salt comes after the text.
    static let maxSaltedText = 1 << 20

    /// Verifies the cleartext-signed message in `input` against `certificates`, writing its text to
    /// `output` as `read` returns it. The text is written BEFORE the signatures after it are checked:
    /// keep it only when a verification is good.
    public static func verify(from input: PGPInput, to output: PGPOutput, certificates: [Certificate], now: UInt32) throws -> [Verification] {
        var hashers = verifiedHashes.map { TypedHasher($0) }
        // A v6 signature hashes its salt before the text, and the salt arrives only after it: the canonical text
        // is kept too, up to `maxSaltedText`, and hashed again behind the salt at the end.
        var retained: [UInt8]? = []
        let signatures = try CleartextReader.read(from: input, to: output) { bytes in
            for index in hashers.indices { hashers[index].update(bytes) }
            if let count = retained?.count {
                if count + bytes.count <= maxSaltedText { retained?.append(contentsOf: bytes) } else { retained = nil }
            }
        }
        return signatures.map { signature in
            Verification.check(signature, certificates: certificates, now: now) { key in
                if signature.version == 6 {
                    guard let retained else {
                        throw PGPError.unsupported("a v6 cleartext signature over more than 1 MiB of text (sign such text inline or detached)")
                    }
                    var hasher = signature.documentHasher()
                    hasher.update(retained)
                    return try signature.verify(documentHasher: hasher, by: key)
                }
                guard let index = verifiedHashes.firstIndex(of: signature.hashAlgorithm) else {
                    throw PGPError.unsupported("hash algorithm \(signature.hashAlgorithm)")
                }
                try signature.verify(documentHasher: hashers[index], by: key)
            }
        }
    }
}
