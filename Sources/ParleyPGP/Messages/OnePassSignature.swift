/// A one-pass signature packet (RFC 4880 §5.4): announces a signature after the data, so a streaming reader
/// can hash the data as it passes. Both readers check it the same way (they once disagreed: found by
/// `pgp-stream-decrypt`, the in-memory reader skipped a malformed one the streaming reader refused).
struct OnePassSignature {
    /// The announced signature's type.
    let type: SignatureType
    /// Its hash, nil when Parley does not know it (the signature then cannot be checked; the message still reads).
    let hash: HashAlgorithm?

    /// The v6 salt the announced signature hashes first (empty for version 3).
    let salt: [UInt8]

    /// Parses a version 3 packet body (13 bytes) or a version 6 one (salt and a 32-byte fingerprint, RFC 9580 §5.4).
    init(packetBody bytes: [UInt8]) throws {
        guard bytes.count >= 13, let type = SignatureType(rawValue: bytes[1]) else {
            throw PGPError.malformed("one-pass signature packet")
        }
        switch bytes[0] {
        case 3 where bytes.count == 13:
            salt = []
        case 6 where bytes.count == 5 + Int(bytes[4]) + 32 + 1:
            salt = Array(bytes[5..<(5 + Int(bytes[4]))])
        default:
            throw PGPError.malformed("one-pass signature packet")
        }
        self.type = type
        hash = try? HashAlgorithm.from(bytes[2])
    }
}
