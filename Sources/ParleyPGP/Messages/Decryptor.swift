/// Reads an OpenPGP message: decrypts (keys or passwords), authenticates (MDC), decompresses,
/// and verifies signatures. Everything is checked before any plaintext is returned.
public struct Decryptor: Sendable {
    /// Secret keys that may decrypt (locked ones are unlocked with `keyPassphrases`).
    public var keys: [Certificate] = []
    /// Pass phrases to try on locked secret keys.
    public var keyPassphrases: [[UInt8]] = []
    /// Passwords to try on SKESK packets.
    public var passwords: [[UInt8]] = []
    /// Session keys known in advance (`sop decrypt --with-session-key`), tried first.
    public var sessionKeys: [SessionKey] = []
    /// Certificates whose signatures should be verified.
    public var verifiers: [Certificate] = []
    /// "Now", seconds since 1970, for key validity.
    public var now: UInt32
    /// Largest plaintext a compressed packet may expand to.
    public var decompressionLimit = Compression.defaultLimit
    /// At most this many bytes are hashed deriving keys from `passwords` for one message (512 MiB, about a
    /// second). The packet cap alone let 32 SKESKs at the largest iteration count (up to 130 MB of hashing
    /// each) stall a reader for about a minute (found by `pgp-stream-decrypt`); eight derivations at GnuPG's
    /// usual count still fit, so a real message with a few passwords reads as before.
    public var passwordWorkLimit = 1 << 29
    /// Decryption's rule (`parley pgp decrypt`, `sop decrypt`): exactly one encrypted message — one that is
    /// not encrypted is refused (`.notEncrypted`) before anything is written, and anything after the message
    /// (packets, bytes, text after its armor) is `.trailingData`. False where signed-only messages are read
    /// too and mail may carry text after a block (inline verification, mail).
    public var strict = true

    /// A decryptor at time `now`.
    public init(now: UInt32) {
        self.now = now
    }

    /// What a message turned out to hold.
    public struct Result: Sendable {
        /// The literal data.
        public let literal: LiteralData
        /// The session key, when the message was encrypted.
        public let sessionKey: SessionKey?
        /// One entry per signature in the message.
        public let verifications: [Verification]
    }

    /// At most this many session-key packets of each kind are tried: each password SKESK can cost up to
    /// 65 MB of hashing, so a hostile message with thousands of them must not stall the reader.
    static let maxSessionKeyPackets = 32


    /// Decrypts and verifies `message` (armored or binary): exactly one OpenPGP message, nothing after it.
    public func decrypt(_ message: [UInt8]) throws -> Result {
        let packets = try PacketParser.parse(Armor.unwrap(message, alone: strict))
        var pkesks: [PKESK] = []
        var skesks: [SKESK] = []
        var unreadable: PGPError?
        for (index, packet) in packets.enumerated() {
            switch packet.tag {
            case .publicKeyEncryptedSessionKey:
                guard pkesks.count < Self.maxSessionKeyPackets else { continue }
                if let pkesk = try? PKESK(packetBody: packet.body) { pkesks.append(pkesk) }
            case .symmetricKeyEncryptedSessionKey:
                guard skesks.count < Self.maxSessionKeyPackets else { continue }
                do { skesks.append(try SKESK(packetBody: packet.body)) } catch { unreadable = Self.unreadable(error, unreadable) }
            case .symmetricallyEncryptedData:
                throw PGPError.missingMDC
            case .symEncryptedIntegrityProtectedData:
                // The encrypted data ends an encrypted message (RFC 4880 §11.3): nothing may follow it.
                guard index == packets.count - 1 || !strict else { throw PGPError.trailingData }
                let (inner, sessionKey) = try Self.explained(unreadable) { try decryptSEIPD(packet.body, pkesks: pkesks, skesks: skesks) }
                return try read(PacketParser.parse(inner), sessionKey: sessionKey, depth: 0)
            case .marker, .padding:
                continue
            default:
                // Not encrypted: a signed or literal message.
                guard !strict else { throw PGPError.notEncrypted }
                return try read(packets, sessionKey: nil, depth: 0)
            }
        }
        throw PGPError.malformed("no encrypted data or literal data in the message")
    }

    private func decryptSEIPD(_ body: [UInt8], pkesks: [PKESK], skesks: [SKESK]) throws -> ([UInt8], SessionKey?) {
        if body.first == 2 {
            let header = try SEIPDv2Header(Array(body.prefix(SEIPDv2Header.length)))
            let found = candidateSessionKeys(pkesks: pkesks, skesks: skesks, dataCipher: header.cipher)
            var failure = found.failure
            for sessionKey in found.keys {
                let plaintext: SEIPDv2DecryptingInput
                do {
                    plaintext = try SEIPDv2DecryptingInput(body: PGPMemoryInput([]), header: header, sessionKey: sessionKey,
                                                           buffered: Array(body.dropFirst(SEIPDv2Header.length)))
                } catch PGPError.badMDC {
                    failure = .badMDC
                    continue
                } catch PGPError.noMatchingKey {
                    continue
                }
                return (try plaintext.readAll(limit: .max), sessionKey)
            }
            throw failure
        }
        let found = candidateSessionKeys(pkesks: pkesks, skesks: skesks)
        for sessionKey in found.keys {
            do {
                return (try SEIPD.decrypt(body, with: sessionKey), sessionKey)
            } catch PGPError.noMatchingKey {
                continue  // a password-derived key that fails the quick check: try the next
            }
        }
        throw found.failure
    }

    /// The first password packet refused as `.unsupported` (an unknown S2K, Argon2 beyond Parley's limits): when no
    /// key opens the message, that is the better reason to give than "no matching key".
    static func unreadable(_ error: Error, _ earlier: PGPError?) -> PGPError? {
        if earlier == nil, case PGPError.unsupported = error { return error as? PGPError }
        return earlier
    }

    /// Runs `body`, reporting `unreadable` instead of `.noMatchingKey`.
    static func explained<R>(_ unreadable: PGPError?, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch PGPError.noMatchingKey where unreadable != nil {
            throw unreadable!
        }
    }

    func unlock(_ secret: SecretKey, sawLocked: inout Bool, sawWrong: inout Bool) -> UnlockedKey? {
        if !secret.isLocked { return try? secret.unlock(passphrase: nil) }
        if keyPassphrases.isEmpty { sawLocked = true }
        for passphrase in keyPassphrases {
            do {
                return try secret.unlock(passphrase: passphrase)
            } catch {
                sawWrong = true
            }
        }
        return nil
    }

    /// Reads decrypted (or plain) packets: compressed data, one-pass signatures, literal data, signatures.
    private func read(_ packets: [Packet], sessionKey: SessionKey?, depth: Int) throws -> Result {
        guard depth < 8 else { throw PGPError.malformed("compressed data nested too deeply") }
        var literal: LiteralData?
        var signatures: [Signature] = []
        for packet in packets {
            switch packet.tag {
            case .compressedData:
                // A compressed packet holds the whole rest of the message.
                guard literal == nil, signatures.isEmpty, packet == packets.last else {
                    throw PGPError.malformed("packets beside compressed data")
                }
                let inner = try PacketParser.parse(Compression.decompress(packet.body, limit: decompressionLimit))
                return try read(inner, sessionKey: sessionKey, depth: depth + 1)
            case .onePassSignature:
                _ = try OnePassSignature(packetBody: packet.body)
            case .literalData:
                guard literal == nil else { throw PGPError.malformed("more than one literal data packet") }
                literal = try LiteralData(packetBody: packet.body)
            case .signature:
                signatures.append(try Signature(packetBody: packet.body))
            case .marker, .padding:
                continue
            default:
                throw PGPError.malformed("unexpected packet \(packet.tagNumber) in a message")
            }
        }
        guard let literal else { throw PGPError.malformed("the message has no literal data") }
        let verifications = signatures.map { Verification.check($0, data: literal.data, certificates: verifiers, now: now) }
        return Result(literal: literal, sessionKey: sessionKey, verifications: verifications)
    }
}
