import Crypto

/// The header of a version 2 SEIPD packet (RFC 9580 §5.13.2): cipher, AEAD mode, chunk size and a 32-byte salt.
/// The message key and nonce prefix are HKDF-SHA256(session key, salt, info = 0xD2 02 cipher mode chunk).
struct SEIPDv2Header: Sendable, Equatable {
    /// Version octet, cipher, mode, chunk size octet, salt.
    static let length = 1 + 3 + 32
    /// The largest chunk size octet RFC 9580 allows: 2^(16+6) bytes = 4 MiB.
    static let maxChunkSizeOctet: UInt8 = 16

    let cipher: SymmetricAlgorithm
    let mode: AEADAlgorithm
    let chunkSizeOctet: UInt8
    let salt: [UInt8]

    /// Parses the first 36 bytes of the packet body (version 2 included).
    init(_ bytes: [UInt8]) throws {
        guard bytes.count >= Self.length else { throw PGPError.truncated }
        guard bytes[0] == 2 else { throw PGPError.unsupported("SEIPD version \(bytes[0])") }
        cipher = try .from(bytes[1])
        mode = try .from(bytes[2])
        chunkSizeOctet = bytes[3]
        guard chunkSizeOctet <= Self.maxChunkSizeOctet else {
            throw PGPError.malformed("SEIPD v2 chunk size octet \(chunkSizeOctet) (at most 16 is allowed)")
        }
        salt = Array(bytes[4..<36])
    }

    init(cipher: SymmetricAlgorithm, mode: AEADAlgorithm, chunkSizeOctet: UInt8, salt: [UInt8]) {
        self.cipher = cipher
        self.mode = mode
        self.chunkSizeOctet = chunkSizeOctet
        self.salt = salt
    }

    /// The header as written, version included.
    var encoded: [UInt8] { [2, cipher.rawValue, mode.rawValue, chunkSizeOctet] + salt }

    /// Plaintext bytes per chunk: 2^(c+6).
    var chunkSize: Int { 1 << (Int(chunkSizeOctet) + 6) }

    /// The associated data of every chunk: the packet tag in OpenPGP format, version, cipher, mode, chunk size.
    var associatedData: [UInt8] { [0xD2, 2, cipher.rawValue, mode.rawValue, chunkSizeOctet] }

    /// The message key and the nonce prefix (nonce size − 8 bytes) for `sessionKey`.
    func keys(_ sessionKey: SessionKey) throws -> (key: [UInt8], iv: [UInt8]) {
        guard sessionKey.key.count == cipher.keySize else { throw PGPError.noMatchingKey }
        let derived = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: sessionKey.key), salt: salt, info: associatedData,
                                             outputByteCount: cipher.keySize + mode.nonceSize - 8).withUnsafeBytes { Array($0) }
        return (Array(derived[..<cipher.keySize]), Array(derived[cipher.keySize...]))
    }

    /// The nonce of chunk `index`: the prefix, then the index as 8 big-endian bytes.
    static func nonce(_ iv: [UInt8], _ index: UInt64) -> [UInt8] {
        iv + (0..<8).map { UInt8(truncatingIfNeeded: index >> (56 - 8 * UInt64($0))) }
    }

    /// The final tag's associated data: the chunk data followed by the total plaintext length, 8 bytes.
    func finalAssociatedData(total: UInt64) -> [UInt8] {
        associatedData + (0..<8).map { UInt8(truncatingIfNeeded: total >> (56 - 8 * UInt64($0))) }
    }
}

/// Decrypts a SEIPD v2 body as a stream, one chunk at a time: every chunk is authenticated before its plaintext is
/// returned, and at the end the final tag authenticates the number of chunks and bytes, so a cut, reordered or
/// dropped chunk is `.badMDC`. As with v1, what was returned before the end is not yet known to be complete.
final class SEIPDv2DecryptingInput: PGPInput {
    private let body: PGPInput
    private let header: SEIPDv2Header
    private let key: [UInt8]
    private let iv: [UInt8]
    private var pending: [UInt8]
    private var plain: [UInt8] = []
    private var plainStart = 0
    private var index: UInt64 = 0
    private var total: UInt64 = 0
    private var ended = false
    private var finished = false

    /// Starts after the 36-byte header with `buffered` ciphertext already read, and authenticates the first chunk at
    /// once: `.badMDC` when `sessionKey` does not open it (a wrong key and altered data look the same to AEAD).
    init(body: PGPInput, header: SEIPDv2Header, sessionKey: SessionKey, buffered: [UInt8]) throws {
        self.body = body
        self.header = header
        (key, iv) = try header.keys(sessionKey)
        pending = buffered
        try decryptNext()
    }

    /// Ciphertext to hold before a chunk is known not to be the last: the chunk, its tag, the final tag, one more.
    static func lookahead(_ header: SEIPDv2Header) -> Int { header.chunkSize + 2 * AEADAlgorithm.tagSize + 1 }

    /// Decrypts the next chunk (and, at the end of the body, checks the final tag).
    private func decryptNext() throws {
        let sealedChunk = header.chunkSize + AEADAlgorithm.tagSize
        while !ended && pending.count < Self.lookahead(header) {
            let more = try body.read(upTo: Self.lookahead(header) - pending.count)
            if more.isEmpty { ended = true } else { pending += more }
        }
        if pending.count >= Self.lookahead(header) {
            try open(Array(pending[..<sealedChunk]))
            pending.removeFirst(sealedChunk)
            return
        }
        // The end: at most one (short or full) chunk, then the final tag.
        guard pending.count >= AEADAlgorithm.tagSize else { throw PGPError.truncated }
        let last = pending.count - AEADAlgorithm.tagSize
        if last > 0 {
            guard last > AEADAlgorithm.tagSize else { throw PGPError.badMDC }  // a chunk holds at least one byte
            try open(Array(pending[..<last]))
        }
        let finalTag = Array(pending[last...])
        _ = try header.mode.open(finalTag, key: key, nonce: SEIPDv2Header.nonce(iv, index),
                                 associatedData: header.finalAssociatedData(total: total))
        pending = []
        finished = true
    }

    private func open(_ sealed: [UInt8]) throws {
        let chunk = try header.mode.open(sealed, key: key, nonce: SEIPDv2Header.nonce(iv, index), associatedData: header.associatedData)
        index += 1
        total += UInt64(chunk.count)
        if plainStart > 0 {
            plain.removeFirst(plainStart)
            plainStart = 0
        }
        plain += chunk
    }

    func read(upTo count: Int) throws -> [UInt8] {
        while plain.count - plainStart == 0 && !finished { try decryptNext() }
        let take = min(count, plain.count - plainStart)
        guard take > 0 else { return [] }
        defer { plainStart += take }
        return Array(plain[plainStart..<(plainStart + take)])
    }
}

/// Writes SEIPD v2 (RFC 9580 §5.13.2) as a stream: the header, then chunks of `chunkSize` sealed as they fill, then
/// the final tag over the total length.
final class SEIPDv2EncryptingSink: PGPSink {
    private let next: PGPSink
    private let header: SEIPDv2Header
    private let key: [UInt8]
    private let iv: [UInt8]
    private var buffer: [UInt8] = []
    private var index: UInt64 = 0
    private var total: UInt64 = 0

    /// Starts a packet body for `sessionKey` with `mode` and chunks of 2^(`chunkSizeOctet`+6) bytes.
    init(sessionKey: SessionKey, mode: AEADAlgorithm, chunkSizeOctet: UInt8 = 16, next: PGPSink) throws {
        self.next = next
        header = SEIPDv2Header(cipher: sessionKey.algorithm, mode: mode, chunkSizeOctet: chunkSizeOctet, salt: randomBytes(32))
        (key, iv) = try header.keys(sessionKey)
        try next.write(header.encoded)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        buffer.append(contentsOf: bytes)
        while buffer.count >= header.chunkSize {
            try seal(Array(buffer[..<header.chunkSize]))
            buffer.removeFirst(header.chunkSize)
        }
    }

    func finish() throws {
        if !buffer.isEmpty { try seal(buffer) }
        buffer = []
        try next.write(header.mode.seal([], key: key, nonce: SEIPDv2Header.nonce(iv, index),
                                        associatedData: header.finalAssociatedData(total: total)))
        try next.finish()
    }

    private func seal(_ chunk: [UInt8]) throws {
        try next.write(header.mode.seal(chunk, key: key, nonce: SEIPDv2Header.nonce(iv, index), associatedData: header.associatedData))
        index += 1
        total += UInt64(chunk.count)
    }
}
