/// Detached signatures over streams: the document is hashed a chunk at a time, never held whole.
extension Signer {
    /// A detached signature over everything `input` holds by each signer, as binary packets.
    public static func detached(from input: PGPInput, signers: [UnlockedKey], text: Bool = false, now: UInt32) throws -> [UInt8] {
        guard !signers.isEmpty else { throw PGPError.unusableKey("no signing key") }
        let drafts = signers.map { Signature.draft(type: text ? .text : .binary, by: $0.publicKey, hash: .sha256, time: now) }
        var hashers = drafts.map { $0.documentHasher() }
        try input.forEachChunk { chunk in
            for index in hashers.indices { hashers[index].updateDocument(chunk) }
        }
        return try drafts.indices.map { index in
            Packet(.signature, body: try drafts[index].signed(documentHasher: hashers[index], by: signers[index]).body)
        }.encoded
    }
}

extension Verification {
    /// Checks a detached signature (armored or binary) over everything `input` holds.
    public static func detached(_ signatureBytes: [UInt8], input: PGPInput, certificates: [Certificate], now: UInt32) throws -> [Verification] {
        let packets = try PacketParser.parse(Armor.unwrap(signatureBytes))
        let signatures = try packets.filter { $0.tag == .signature }.map { try Signature(packetBody: $0.body) }
        guard !signatures.isEmpty else { throw PGPError.malformed("no signature packets") }
        var hashers = signatures.map { $0.documentHasher() }
        try input.forEachChunk { chunk in
            for index in hashers.indices { hashers[index].updateDocument(chunk) }
        }
        return signatures.indices.map { index in
            let hasher = hashers[index]
            return check(signatures[index], certificates: certificates, now: now) {
                try signatures[index].verify(documentHasher: hasher, by: $0)
            }
        }
    }
}

extension PGPInput {
    /// Calls `body` with each chunk until the end of the input.
    func forEachChunk(_ body: ([UInt8]) throws -> Void) throws {
        while true {
            let chunk = try read(upTo: PGPStream.chunkSize)
            if chunk.isEmpty { return }
            try body(chunk)
        }
    }
}

extension Signer {
    /// An inline-signed message (one-pass signatures, the literal data streamed from `input`, then the
    /// signatures) written to `output` as it is read, armored when asked: `inline(_:)` for input of any size.
    public static func inline(from input: PGPInput, to output: PGPOutput, signers: [UnlockedKey], text: Bool = false,
                              armor: Bool = false, now: UInt32) throws {
        guard !signers.isEmpty else { throw PGPError.unusableKey("no signing key") }
        let sink: PGPSink = armor ? try ArmorSink(output, kind: .message) : OutputSink(output)
        try streamSigned(from: input, into: sink, format: text ? 0x75 : 0x62, filename: [], signers: signers, now: now)
        try sink.finish()
    }
}
