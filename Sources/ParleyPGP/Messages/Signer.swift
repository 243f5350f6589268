/// Signed messages and detached signatures.
public enum Signer {
    /// One-pass signatures, the literal data and the signatures (RFC 4880 §11.3), or just the literal.
    static func signedPackets(_ literal: LiteralData, signers: [UnlockedKey], now: UInt32) throws -> [Packet] {
        guard !signers.isEmpty else { return [Packet(.literalData, body: literal.body)] }
        let type: SignatureType = literal.format == 0x62 ? .binary : .text
        let signatures = try signers.map { try Signature.create(type: type, over: literal.data, by: $0, hash: .sha256, time: now) }
        var packets: [Packet] = []
        for (index, signature) in signatures.enumerated() {
            let key = signers[index].publicKey
            packets.append(Packet(.onePassSignature, body: signature.onePassBody(keyID: key.keyID, last: index == signatures.count - 1, fingerprint: key.fingerprint)))
        }
        packets.append(Packet(.literalData, body: literal.body))
        // Signatures follow in the reverse order of their one-pass packets (they nest).
        packets += signatures.reversed().map { Packet(.signature, body: $0.body) }
        return packets
    }

    /// A detached signature over `data` by each signer, as binary packets.
    public static func detached(_ data: [UInt8], signers: [UnlockedKey], text: Bool = false, now: UInt32) throws -> [UInt8] {
        guard !signers.isEmpty else { throw PGPError.unusableKey("no signing key") }
        return try signers.map {
            Packet(.signature, body: try Signature.create(type: text ? .text : .binary, over: data, by: $0, time: now).body)
        }.encoded
    }

    /// An inline-signed (not encrypted) message; `text` makes UTF-8 literal data and text signatures.
    public static func inline(_ data: [UInt8], signers: [UnlockedKey], text: Bool = false, now: UInt32) throws -> [UInt8] {
        guard !signers.isEmpty else { throw PGPError.unusableKey("no signing key") }
        return try signedPackets(LiteralData(format: text ? 0x75 : 0x62, data: data), signers: signers, now: now).encoded
    }
}

extension Certificate {
    /// The newest valid signing key, unlocked with one of `passphrases`.
    public func unlockedSigningKey(passphrases: [[UInt8]], now: UInt32) throws -> UnlockedKey {
        try unlocked(signingKeys(at: now), passphrases: passphrases, what: "signing")
    }

    func unlocked(_ candidates: [PublicKey], passphrases: [[UInt8]], what: String) throws -> UnlockedKey {
        var lastError = PGPError.unusableKey("no valid \(what) key with its secret part")
        for key in candidates {
            guard let secret = secretKey(for: key) else { continue }
            if !secret.isLocked { return try secret.unlock(passphrase: nil) }
            if passphrases.isEmpty { lastError = .needsPassphrase }
            for passphrase in passphrases {
                do { return try secret.unlock(passphrase: passphrase) } catch { lastError = .wrongPassphrase }
            }
        }
        throw lastError
    }
}
