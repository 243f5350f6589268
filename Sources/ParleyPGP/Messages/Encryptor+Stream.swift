/// Streamed encryption: the same message `encrypt(_:)` makes, written as it is read, with partial
/// body lengths, so content of any size is encrypted in bounded memory.
extension Encryptor {
    /// Encrypts (and signs, compresses) everything `input` holds into `output`, armored when asked.
    public func encrypt(from input: PGPInput, to output: PGPOutput, filename: [UInt8] = [], armor: Bool = false) throws {
        guard !recipients.isEmpty || !passwords.isEmpty else { throw PGPError.unusableKey("no recipients or passwords") }
        let sessionKey = SessionKey.random(cipher)
        var sessionPackets: [Packet] = []
        for recipient in recipients {
            guard let key = recipient.encryptionKeys(at: now).first else {
                throw PGPError.unusableKey("certificate \(recipient.primaryKey.fingerprintHex) has no valid encryption key")
            }
            sessionPackets.append(Packet(.publicKeyEncryptedSessionKey, body: try PKESK.encrypt(sessionKey, to: key).body))
        }
        for password in passwords {
            sessionPackets.append(Packet(.symmetricKeyEncryptedSessionKey, body: try Encryptor.skesk(sessionKey, password: password)))
        }
        let out: PGPSink = armor ? try ArmorSink(output, kind: .message) : OutputSink(output)
        try out.write(sessionPackets.encoded)
        let encrypted = try SEIPDEncryptingSink(sessionKey: sessionKey,
                                                next: PartialPacketWriter(tag: Packet.Tag.symEncryptedIntegrityProtectedData.rawValue, next: out))
        let inner: PGPSink = compress
            ? try DeflatingSink(next: PartialPacketWriter(tag: Packet.Tag.compressedData.rawValue, next: encrypted))
            : encrypted
        try Signer.streamSigned(from: input, into: inner, format: format, filename: filename, signers: signers, now: now)
        try inner.finish()
    }
}

extension Signer {
    /// Writes one-pass signatures, the literal data streamed from `input`, then the signatures, into `sink`
    /// (which is not finished here).
    static func streamSigned(from input: PGPInput, into sink: PGPSink, format: UInt8, filename: [UInt8],
                             signers: [UnlockedKey], now: UInt32) throws {
        let type: SignatureType = format == 0x62 ? .binary : .text
        let drafts = signers.map { Signature.draft(type: type, by: $0.publicKey, hash: .sha256, time: now) }
        var hashers = drafts.map { $0.documentHasher() }
        for (index, draft) in drafts.enumerated() {
            let onePass = draft.onePassBody(keyID: signers[index].publicKey.keyID, last: index == drafts.count - 1)
            try sink.write(Packet(.onePassSignature, body: onePass).encoded)
        }
        let literal = try LiteralSink(format: format, filename: filename, date: now, next: sink)
        while true {
            let chunk = try input.read(upTo: PGPStream.chunkSize)
            if chunk.isEmpty { break }
            for index in hashers.indices { hashers[index].updateDocument(chunk) }
            try literal.write(chunk)
        }
        try literal.finish()
        // Signatures follow in the reverse order of their one-pass packets (they nest).
        for index in drafts.indices.reversed() {
            let signature = try drafts[index].signed(documentHasher: hashers[index], by: signers[index])
            try sink.write(Packet(.signature, body: signature.body).encoded)
        }
    }
}
