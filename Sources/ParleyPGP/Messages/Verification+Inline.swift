/// Inline-signed messages read as a stream: the signed content goes to an output while its hash runs,
/// then the signatures at the end are checked — what `gpg --verify` does with `gpg --sign` output.
extension Verification {
    /// Checks the inline-signed message in `input` against `certificates`: either an OpenPGP message,
    /// armored or binary, of one-pass signatures, literal data and signatures (as `gpg --sign` writes it,
    /// compressed or not), or a cleartext-signed text (`gpg --clearsign`). Returns one verification per
    /// signature; an unsigned message gives none. Compressed content may expand to `decompressionLimit`
    /// bytes (1 GiB, as for `Decryptor`).
    ///
    /// The content reaches `output` BEFORE the signatures after it are checked: keep it only when a
    /// verification is good. A cleartext text is written as `CleartextSignature.verify` returns it
    /// (every line ended by LF), streamed like the rest. An encrypted message throws `.noMatchingKey`:
    /// there is nothing to decrypt it with here, so it is a `Decryptor`'s job.
    public static func inline(from input: PGPInput, to output: PGPOutput, certificates: [Certificate], now: UInt32,
                              decompressionLimit: Int = 1 << 30) throws -> [Verification] {
        let source = BufferedInput(input)
        if try isCleartextSigned(source.peek(1024)) {
            return try CleartextSignature.verify(from: source, to: output, certificates: certificates, now: now)
        }
        var decryptor = Decryptor(now: now)
        decryptor.strict = false
        decryptor.verifiers = certificates
        decryptor.decompressionLimit = decompressionLimit
        return try decryptor.decrypt(from: source, to: output).verifications
    }

    /// Whether `head`, after leading whitespace, opens a cleartext-signed message.
    static func isCleartextSigned(_ head: [UInt8]) -> Bool {
        let start = head.firstIndex { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) } ?? head.endIndex
        return head[start...].starts(with: Array("-----BEGIN PGP SIGNED MESSAGE-----".utf8))
    }
}
