/// Streamed encryption: the same message `encrypt(_:)` makes, written as it is read, with partial
/// body lengths, so content of any size is encrypted in bounded memory.
extension Encryptor {
    /// Encrypts (and signs, compresses) everything `input` holds into `output`, armored when asked.
    public func encrypt(from input: PGPInput, to output: PGPOutput, filename: [UInt8] = [], armor: Bool = false) throws {
        let (v2, sessionKey, sessionPackets) = try sessionKeyPackets()
        let out: PGPSink = armor ? try ArmorSink(output, kind: .message) : OutputSink(output)
        try out.write(sessionPackets.encoded)
        let packet = try PartialPacketWriter(tag: Packet.Tag.symEncryptedIntegrityProtectedData.rawValue, next: out)
        let encrypted: PGPSink = v2
            ? try SEIPDv2EncryptingSink(sessionKey: sessionKey, mode: Self.aeadMode, chunkSizeOctet: Self.chunkSizeOctet, next: packet)
            : try SEIPDEncryptingSink(sessionKey: sessionKey, next: packet)
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
            let onePass = draft.onePassBody(keyID: signers[index].publicKey.keyID, last: index == drafts.count - 1,
                                            fingerprint: signers[index].publicKey.fingerprint)
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
