/// Streamed decryption: the same checks as `decrypt(_:)`, over an input of any size in bounded memory.
extension Decryptor {
    /// What a streamed message turned out to hold (the content itself went to the output).
    public struct StreamResult: Sendable {
        /// 'b' binary, 't' text, 'u' UTF-8 text.
        public let format: UInt8
        /// The file name the sender gave (may be empty).
        public let filename: [UInt8]
        /// The date the sender gave, seconds since 1970.
        public let date: UInt32
        /// How many content bytes were written.
        public let byteCount: Int
        /// The session key, when the message was encrypted.
        public let sessionKey: SessionKey?
        /// One entry per signature in the message.
        public let verifications: [Verification]
    }

    /// Largest non-content packet (session keys, signatures, markers) held in memory.
    static let maxSmallPacket = 1 << 20

    /// Decrypts and verifies `input` (armored or binary), writing the content to `output` as it goes.
    ///
    /// The content reaches `output` BEFORE the integrity check at the end: when this throws, what was
    /// written is unauthenticated and must be discarded. `decryptFile` does that with a temporary file.
    public func decrypt(from input: PGPInput, to output: PGPOutput) throws -> StreamResult {
        var source = BufferedInput(input)
        var armor: DearmorInput?
        if Armor.isArmored(try source.peek(1024)) {
            armor = try DearmorInput(source)
            source = BufferedInput(armor!)
        }
        var pkesks: [PKESK] = []
        var skesks: [SKESK] = []
        var unreadable: PGPError?
        // The first session-key packet's tag: one before unencrypted data is refused, as `decrypt(_:)` does.
        var sessionKeyTag: UInt8?
        while let (tagNumber, body) = try PacketStream.next(source) {
            switch Packet.Tag(rawValue: tagNumber) {
            case .publicKeyEncryptedSessionKey:
                sessionKeyTag = sessionKeyTag ?? tagNumber
                let bytes = try body.readAll(limit: Self.maxSmallPacket)
                if pkesks.count < Self.maxSessionKeyPackets, let pkesk = try? PKESK(packetBody: bytes) { pkesks.append(pkesk) }
            case .symmetricKeyEncryptedSessionKey:
                sessionKeyTag = sessionKeyTag ?? tagNumber
                let bytes = try body.readAll(limit: Self.maxSmallPacket)
                if skesks.count < Self.maxSessionKeyPackets {
                    do { skesks.append(try SKESK(packetBody: bytes)) } catch { unreadable = Self.unreadable(error, unreadable) }
                }
            case .symmetricallyEncryptedData:
                throw PGPError.missingMDC
            case .symEncryptedIntegrityProtectedData:
                let result = try Self.explained(unreadable) { try decryptSEIPD(body, pkesks: pkesks, skesks: skesks, to: output) }
                // Checked where the MDC is: before the caller releases what was written.
                try requireEnd(of: source, armor: armor)
                return result
            case .marker, .padding:
                try body.drain()
            default:
                // Not encrypted: a signed or literal message, starting with this packet.
                guard !strict else { throw PGPError.notEncrypted }
                // Session keys for data that is not encrypted: not a message (found by pgp-stream-decrypt,
                // which saw this reader drop them and read the literal data the in-memory one refuses).
                if let sessionKeyTag { throw PGPError.malformed("unexpected packet \(sessionKeyTag) in a message") }
                var reader = StreamMessageReader(decryptor: self, output: output)
                let result = try reader.read(source, first: (tagNumber, body), sessionKey: nil)
                try requireEnd(of: source, armor: armor)
                return result
            }
        }
        throw PGPError.malformed("no encrypted data or literal data in the message")
    }

    /// One message and nothing more (when strict): no bytes after its last packet, no text after its armor's
    /// END line.
    func requireEnd(of source: BufferedInput, armor: DearmorInput?) throws {
        guard strict else { return }
        guard try source.isAtEnd() else { throw PGPError.trailingData }
        try armor?.requireNothingAfterEnd()
    }

    private func decryptSEIPD(_ body: PacketBodyInput, pkesks: [PKESK], skesks: [SKESK], to output: PGPOutput) throws -> StreamResult {
        guard let version = try body.read(upTo: 1).first else { throw PGPError.truncated }
        if version == 2 { return try decryptSEIPDv2(body, pkesks: pkesks, skesks: skesks, to: output) }
        guard version == 1 else { throw PGPError.unsupported("SEIPD version \(version)") }
        // Enough ciphertext for the quick check and, for a short message, the whole body.
        var first: [UInt8] = []
        while first.count < 64 {
            let more = try body.read(upTo: PGPStream.chunkSize)
            if more.isEmpty { break }
            first += more
        }
        let found = candidateSessionKeys(pkesks: pkesks, skesks: skesks)
        for sessionKey in found.keys {
            if first.count < 18 + 22 { throw PGPError.truncated }
            guard SEIPDDecryptingInput.quickCheck(first, sessionKey: sessionKey) else { continue }
            let plaintext = try SEIPDDecryptingInput(body: body, firstChunk: first, sessionKey: sessionKey)
            return try readDecrypted(plaintext, sessionKey: sessionKey, to: output)
        }
        throw found.failure
    }

    /// SEIPD v2: the header names the cipher the session-key packets leave out (v6); the first chunk's tag tells
    /// whether a candidate session key is the one.
    private func decryptSEIPDv2(_ body: PacketBodyInput, pkesks: [PKESK], skesks: [SKESK], to output: PGPOutput) throws -> StreamResult {
        var headerBytes: [UInt8] = [2]
        while headerBytes.count < SEIPDv2Header.length {
            let more = try body.read(upTo: SEIPDv2Header.length - headerBytes.count)
            guard !more.isEmpty else { throw PGPError.truncated }
            headerBytes += more
        }
        let header = try SEIPDv2Header(headerBytes)
        var first: [UInt8] = []
        while first.count < SEIPDv2DecryptingInput.lookahead(header) {
            let more = try body.read(upTo: SEIPDv2DecryptingInput.lookahead(header) - first.count)
            if more.isEmpty { break }
            first += more
        }
        let found = candidateSessionKeys(pkesks: pkesks, skesks: skesks, dataCipher: header.cipher)
        var failure = found.failure
        for sessionKey in found.keys {
            let plaintext: SEIPDv2DecryptingInput
            do {
                plaintext = try SEIPDv2DecryptingInput(body: body, header: header, sessionKey: sessionKey, buffered: first)
            } catch PGPError.badMDC {
                failure = .badMDC  // a session key was found, and the data did not authenticate under it
                continue
            } catch PGPError.noMatchingKey {
                continue
            }
            return try readDecrypted(plaintext, sessionKey: sessionKey, to: output)
        }
        throw failure
    }

    /// Reads the packets of decrypted data to the end, which is what checks the MDC or the final AEAD tag.
    private func readDecrypted(_ plaintext: PGPInput, sessionKey: SessionKey, to output: PGPOutput) throws -> StreamResult {
        var reader = StreamMessageReader(decryptor: self, output: output)
        let result: StreamResult
        do {
            result = try reader.read(BufferedInput(plaintext), first: nil, sessionKey: sessionKey)
        } catch let error as PGPError where error != .badMDC {
            // Garbled packets inside usually mean altered ciphertext: the MDC gives the real reason.
            try plaintext.drain()
            throw error
        }
        try plaintext.drain()
        return result
    }

    /// Session keys to try, in order: given ones, then from PKESKs with the keys, then from SKESKs with the
    /// passwords; and the error to throw when none opens the data.
    ///
    /// Each secret key is unlocked at most once, however many PKESKs name it (or name no one): a message with
    /// 32 anonymous PKESKs must not run a 65 MB S2K 32 times. Password derivation stops at `passwordWorkLimit`.
    func candidateSessionKeys(pkesks: [PKESK], skesks: [SKESK], dataCipher: SymmetricAlgorithm? = nil) -> (keys: [SessionKey], failure: PGPError) {
        var sawLocked = false
        var sawWrong = false
        var candidates = sessionKeys
        var unlocked: [[UInt8]: UnlockedKey?] = [:]
        var unsupported: PGPError?
        for pkesk in pkesks {
            for certificate in keys {
                for key in certificate.allKeys where key.canEncrypt && pkesk.isFor(key) {
                    guard let secret = certificate.secretKey(for: key) else { continue }
                    let fingerprint = secret.publicKey.fingerprint
                    if unlocked[fingerprint] == nil {
                        unlocked[fingerprint] = .some(unlock(secret, sawLocked: &sawLocked, sawWrong: &sawWrong))
                    }
                    guard let secretKey = unlocked[fingerprint] ?? nil else { continue }
                    do {
                        candidates.append(try pkesk.decrypt(with: secretKey, dataCipher: dataCipher))
                    } catch let error as PGPError {
                        // The key opened the packet, but it names a cipher Parley lacks: say so, not "no key".
                        if case .unsupported = error, unsupported == nil { unsupported = error }
                    } catch {}
                }
            }
        }
        var work = 0
        var tooCostly = false
        // Copies of one SKESK (same S2K, cipher and password) derive the same key: derived once, counted once.
        var derived: [[UInt8]: [UInt8]] = [:]
        derivation: for skesk in skesks {
            for password in passwords {
                let recipe = skesk.s2k.encoded + [skesk.algorithm.rawValue] + password
                if derived[recipe] == nil {
                    work += skesk.s2k.work(passphraseCount: password.count, length: skesk.algorithm.keySize)
                    guard work <= passwordWorkLimit else {
                        tooCostly = true
                        break derivation
                    }
                    derived[recipe] = (try? skesk.s2k.deriveKey(passphrase: password, length: skesk.algorithm.keySize)) ?? []
                }
                if let key = derived[recipe], !key.isEmpty, let sessionKey = try? skesk.sessionKey(derived: key, dataCipher: dataCipher) {
                    candidates.append(sessionKey)
                }
            }
        }
        let failure: PGPError = if sawWrong {
            .wrongPassphrase
        } else if sawLocked {
            .needsPassphrase
        } else if tooCostly {
            .unsupported("the message asks for more password key derivation than Parley does for one message (its iteration counts are too high)")
        } else if let unsupported {
            unsupported
        } else {
            .noMatchingKey
        }
        return (candidates, failure)
    }
}

/// Reads the packets of a (decrypted) message as a stream: compressed data, one-pass signatures,
/// literal data (streamed to the output through the signature hashes), signatures.
struct StreamMessageReader {
    let decryptor: Decryptor
    let output: PGPOutput

    /// Hashes keyed by hash algorithm, text mode and salt (v6): one per kind of signature announced.
    private var hashers: [TypedHasher] = []
    private var kinds: [(HashAlgorithm, Bool, [UInt8])] = []

    init(decryptor: Decryptor, output: PGPOutput) {
        self.decryptor = decryptor
        self.output = output
    }

    mutating func read(_ input: BufferedInput, first: (UInt8, PacketBodyInput)?, sessionKey: SessionKey?, depth: Int = 0) throws -> Decryptor.StreamResult {
        guard depth < 8 else { throw PGPError.malformed("compressed data nested too deeply") }
        var pending = first
        var literal: (format: UInt8, filename: [UInt8], date: UInt32, count: Int)?
        var signatures: [Signature] = []
        var prefixSignatures: [Signature] = []
        while let (tagNumber, body) = try pending ?? PacketStream.next(input) {
            pending = nil
            switch Packet.Tag(rawValue: tagNumber) {
            case .compressedData:
                // A compressed packet holds the whole rest of the message.
                guard literal == nil, signatures.isEmpty, prefixSignatures.isEmpty else {
                    throw PGPError.malformed("packets beside compressed data")
                }
                let inflated = try InflatingInput(body, limit: decryptor.decompressionLimit)
                let result = try read(BufferedInput(inflated), first: nil, sessionKey: sessionKey, depth: depth + 1)
                try body.drain()
                guard try input.isAtEnd() else { throw PGPError.malformed("packets beside compressed data") }
                return result
            case .onePassSignature:
                let onePass = try OnePassSignature(packetBody: body.readAll(limit: 128))
                // An unknown hash just means this signature cannot be checked; the message still reads.
                if let hash = onePass.hash { announce(hash, text: onePass.type == .text, salt: onePass.salt) }
            case .literalData:
                guard literal == nil else { throw PGPError.malformed("more than one literal data packet") }
                for signature in prefixSignatures { announce(signature.hashAlgorithm, text: signature.type == .text, salt: signature.salt) }
                literal = try stream(body)
            case .signature:
                let signature = try Signature(packetBody: body.readAll(limit: Decryptor.maxSmallPacket))
                if literal == nil { prefixSignatures.append(signature) } else { signatures.append(signature) }
            case .marker, .padding:
                try body.drain()
            default:
                throw PGPError.malformed("unexpected packet \(tagNumber) in a message")
            }
        }
        guard let literal else { throw PGPError.malformed("the message has no literal data") }
        let verifications = (prefixSignatures + signatures).map(verify)
        return Decryptor.StreamResult(format: literal.format, filename: literal.filename, date: literal.date,
                                      byteCount: literal.count, sessionKey: sessionKey, verifications: verifications)
    }

    private mutating func announce(_ hash: HashAlgorithm, text: Bool, salt: [UInt8]) {
        guard !kinds.contains(where: { $0.0 == hash && $0.1 == text && $0.2 == salt }) else { return }
        kinds.append((hash, text, salt))
        var hasher = TypedHasher(hash, text: text)
        hasher.update(salt)
        hashers.append(hasher)
    }

    /// Streams the literal data's content to the output and through every announced hash.
    private mutating func stream(_ body: PacketBodyInput) throws -> (UInt8, [UInt8], UInt32, Int) {
        let header = BufferedInput(body)
        let format = try header.exactly(1)[0]
        let filename = try header.exactly(Int(header.exactly(1)[0]))
        var date: UInt32 = 0
        for byte in try header.exactly(4) { date = date << 8 | UInt32(byte) }
        var count = 0
        while true {
            let chunk = try header.read(upTo: PGPStream.chunkSize)
            if chunk.isEmpty { break }
            for index in hashers.indices { hashers[index].updateDocument(chunk) }
            try output.write(chunk)
            count += chunk.count
        }
        return (format, filename, date, count)
    }

    private func verify(_ signature: Signature) -> Verification {
        guard let index = kinds.firstIndex(where: { $0.0 == signature.hashAlgorithm && $0.1 == (signature.type == .text) && $0.2 == signature.salt }) else {
            return Verification(signature: signature, certificateFingerprint: nil, signingKeyFingerprint: nil,
                                failure: .badSignature("no one-pass signature announced this signature"))
        }
        let hasher = hashers[index]
        return Verification.check(signature, certificates: decryptor.verifiers, now: decryptor.now) {
            try signature.verify(documentHasher: hasher, by: $0)
        }
    }
}
