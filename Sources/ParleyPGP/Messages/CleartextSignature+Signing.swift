/// Cleartext signing as a stream: text of any size is read, dash-escaped and written as it comes, and
/// hashed in its canonical form for the signatures written after it.
extension CleartextSignature {
    /// The input is not UTF-8 text, which a cleartext signature needs.
    public struct NotText: Error, CustomStringConvertible {
        public var description: String { "a cleartext signature needs UTF-8 text, and the input is not" }
    }

    /// Writes a cleartext-signed message of the text in `input` to `output`, signed by each of
    /// `signers` (SHA-256): the same message `sign(_:signers:now:)` makes. Throws `NotText` when the
    /// input is not UTF-8 — after part of the output may have been written, so callers that must not
    /// show a partial result write to a scratch output first.
    public static func sign(from input: PGPInput, to output: PGPOutput, signers: [UnlockedKey], now: UInt32) throws {
        guard !signers.isEmpty else { throw PGPError.unusableKey("no signing key") }
        let drafts = signers.map { Signature.draft(type: .text, by: $0.publicKey, hash: .sha256, time: now) }
        var hashers = drafts.map { $0.documentHasher() }  // v6: salted first
        let hash: (ArraySlice<UInt8>) -> Void = { bytes in
            for index in hashers.indices { hashers[index].update(bytes) }
        }
        let out = CoalescingOutput(output)
        // RFC 9580 §7.1: no "Hash:" header for v6 signatures (their salt and hash are in the signature), as A.6 shows.
        let v6Only = drafts.allSatisfy { $0.version == 6 }
        // A v4 Ed448 key signs with SHA-512 (Signature.draft raises it), so the header names what the drafts use.
        let sha512 = drafts.contains { $0.hashAlgorithm == .sha512 }, sha256 = drafts.contains { $0.hashAlgorithm != .sha512 }
        let header = "Hash: " + [sha256 ? "SHA256" : nil, sha512 ? "SHA512" : nil].compactMap { $0 }.joined(separator: ",")
        try out.write(v6Only ? "-----BEGIN PGP SIGNED MESSAGE-----\n\n" : "-----BEGIN PGP SIGNED MESSAGE-----\n\(header)\n\n")
        var scanner = TextLineScanner()
        var canonical = CanonicalText()
        var utf8 = UTF8StreamCheck()
        try input.forEachChunk { chunk in
            guard utf8.accepts(chunk) else { throw NotText() }
            try scanner.feed(chunk[...]) { piece in
                // A line starting with a dash is escaped, so it cannot pass for an armor line.
                if !canonical.inLine, piece.first == 0x2D { try out.write("- ") }
                canonical.add(piece, emit: hash)
                try out.write(piece)
            } end: {
                canonical.endLine()
                try out.write("\n")
            }
        }
        guard utf8.endsWell else { throw NotText() }
        if canonical.inLine || canonical.lines == 0 {
            // The last line had no line ending, or the text is empty (one empty line).
            canonical.endLine()
            try out.write("\n")
        }
        // (A text ending with a line ending has no empty line after it.)
        canonical.flush(emit: hash)
        let signatures = try drafts.indices.map { index in
            Packet(.signature, body: try drafts[index].signed(documentHasher: hashers[index], by: signers[index]).body)
        }
        try out.write(Armor.encode(signatures.encoded, as: .signature))
        try out.flush()
    }
}
