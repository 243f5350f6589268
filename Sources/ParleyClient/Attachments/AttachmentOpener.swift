import Crypto

/// Decrypts an attachment as its bytes arrive, in any slicing, holding at most one sealed chunk.
///
/// The total size is known before the first byte (from the message and the server), so the last chunk
/// is known by position: truncation, extension, reordering and dropped chunks all fail.
struct AttachmentOpener {
    private let key: [UInt8]
    private let chunkCount: Int64
    private let ciphertextSize: Int64
    private var header: [UInt8]?
    private var payloadKey: SymmetricKey?
    private var buffer: [UInt8] = []
    private var counter: Int64 = 0
    private var consumed: Int64 = 0

    /// Expects `ciphertextSize` bytes holding exactly `plaintextSize` bytes of plaintext under `key`.
    init(key: [UInt8], plaintextSize: Int64, ciphertextSize: Int64) throws(AttachmentError) {
        guard key.count == AttachmentFormat.keyLength else { throw .malformed("the file key is not 32 bytes") }
        guard plaintextSize >= 0, ciphertextSize == AttachmentFormat.ciphertextSize(plaintextSize: plaintextSize) else {
            throw .malformed("the encrypted size does not match the announced file size")
        }
        self.key = key
        self.ciphertextSize = ciphertextSize
        chunkCount = AttachmentFormat.chunkCount(plaintextSize: plaintextSize)
        buffer.reserveCapacity(AttachmentFormat.sealedChunkSize + 32 * 1024)
    }

    /// Takes the next bytes; returns the plaintext of every chunk they completed.
    mutating func feed(_ bytes: ArraySlice<UInt8>) throws(AttachmentError) -> [UInt8] {
        guard consumed + Int64(bytes.count) <= ciphertextSize else { throw .malformed("more bytes than announced") }
        consumed += Int64(bytes.count)
        buffer += bytes
        if header == nil {
            guard buffer.count >= AttachmentFormat.headerLength else { return [] }
            let header = Array(buffer[0..<AttachmentFormat.headerLength])
            payloadKey = AttachmentFormat.payloadKey(key: key, salt: try AttachmentFormat.salt(fromHeader: header))
            self.header = header
            buffer.removeFirst(AttachmentFormat.headerLength)
        }
        var out: [UInt8] = []
        // A full-size chunk that is not the last can be opened as soon as it is complete; the last one
        // waits for the end of the input.
        while counter < chunkCount - 1, buffer.count >= AttachmentFormat.sealedChunkSize {
            out += try AttachmentFormat.openChunk(buffer[0..<AttachmentFormat.sealedChunkSize], key: payloadKey!, counter: counter,
                                                  last: false, header: header!)
            buffer.removeFirst(AttachmentFormat.sealedChunkSize)
            counter += 1
        }
        return out
    }

    /// After all bytes were fed: opens the last chunk and returns its plaintext.
    mutating func finish() throws(AttachmentError) -> [UInt8] {
        guard consumed == ciphertextSize, let header, let payloadKey, counter == chunkCount - 1 else {
            throw .malformed("the encrypted file is truncated")
        }
        let out = try AttachmentFormat.openChunk(buffer[...], key: payloadKey, counter: counter, last: true, header: header)
        buffer.removeAll()
        counter += 1
        return out
    }
}
