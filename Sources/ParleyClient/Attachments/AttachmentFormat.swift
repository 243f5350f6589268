import Crypto
import Foundation

/// The encrypted form of a file sent in a conversation (docs/FORMATS.md §16, "Parley attachment v1").
///
/// `"PRLA" ‖ 01 ‖ salt(16) ‖ chunk × N`; chunk `i` = AES-256-GCM(Kp, i(11 bytes) ‖ last, 64 KiB of plaintext,
/// AD = the 21 header bytes), `Kp` = HKDF-SHA256(key, salt, "parley-attachment-v1/payload").
enum AttachmentFormat {
    static let magic: [UInt8] = Array("PRLA".utf8)
    static let version: UInt8 = 0x01
    static let saltLength = 16
    static let headerLength = 4 + 1 + 16
    static let keyLength = 32
    static let chunkSize = 65_536
    static let tagLength = 16
    static let sealedChunkSize = chunkSize + tagLength

    /// The number of chunks for `plaintextSize` bytes: an empty file is one empty chunk.
    static func chunkCount(plaintextSize: Int64) -> Int64 {
        max(1, (plaintextSize + Int64(chunkSize) - 1) / Int64(chunkSize))
    }

    /// The exact encrypted size of `plaintextSize` bytes.
    static func ciphertextSize(plaintextSize: Int64) -> Int64 {
        Int64(headerLength) + plaintextSize + Int64(tagLength) * chunkCount(plaintextSize: plaintextSize)
    }

    /// The largest plaintext whose encrypted form is at most `ciphertextLimit` bytes (0 when even an empty file's is
    /// larger): what a server's limit on encrypted files means for the file a person sends.
    static func largestPlaintext(ciphertextAtMost ciphertextLimit: Int64) -> Int64 {
        var low: Int64 = 0, high = max(0, ciphertextLimit)
        guard ciphertextSize(plaintextSize: 0) <= ciphertextLimit else { return 0 }
        while low < high {
            let middle = low + (high - low + 1) / 2
            if ciphertextSize(plaintextSize: middle) <= ciphertextLimit { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The header: magic, version, salt.
    static func header(salt: [UInt8]) -> [UInt8] {
        magic + [version] + salt
    }

    /// Checks a header and returns its salt.
    static func salt(fromHeader header: [UInt8]) throws(AttachmentError) -> [UInt8] {
        guard header.count == headerLength, Array(header[0..<4]) == magic else { throw .malformed("not a Parley attachment") }
        guard header[4] == version else { throw .unsupportedVersion }
        return Array(header[5...])
    }

    /// The per-file payload key.
    static func payloadKey(key: [UInt8], salt: [UInt8]) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: key), salt: salt,
                               info: Array("parley-attachment-v1/payload".utf8), outputByteCount: 32)
    }

    /// `counter` as 11 big-endian bytes, then `01` for the last chunk or `00`.
    static func nonce(counter: Int64, last: Bool) -> AES.GCM.Nonce {
        var bytes = [UInt8](repeating: 0, count: 3)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: UInt64(counter) >> UInt64(shift))) }
        bytes.append(last ? 1 : 0)
        return try! AES.GCM.Nonce(data: bytes)   // twelve bytes is always a valid GCM nonce
    }

    /// Seals one chunk: `ciphertext ‖ tag`.
    static func sealChunk(_ plaintext: some DataProtocol, key: SymmetricKey, counter: Int64, last: Bool, header: [UInt8]) -> [UInt8] {
        // Sealing with a valid key and a 12-byte nonce cannot fail.
        let box = try! AES.GCM.seal(plaintext, using: key, nonce: nonce(counter: counter, last: last), authenticating: header)
        return Array(box.ciphertext) + Array(box.tag)
    }

    /// Opens one sealed chunk; any failure is `cannotDecrypt`.
    static func openChunk(_ sealed: ArraySlice<UInt8>, key: SymmetricKey, counter: Int64, last: Bool, header: [UInt8]) throws(AttachmentError) -> [UInt8] {
        guard sealed.count >= tagLength else { throw .malformed("a chunk is shorter than its tag") }
        let split = sealed.endIndex - tagLength
        do {
            let box = try AES.GCM.SealedBox(nonce: nonce(counter: counter, last: last), ciphertext: sealed[sealed.startIndex..<split],
                                            tag: sealed[split...])
            return Array(try AES.GCM.open(box, using: key, authenticating: header))
        } catch {
            throw .cannotDecrypt
        }
    }

    /// Encrypts bytes in memory (small files, tests and vectors); `salt` is random unless given.
    static func seal(_ plaintext: [UInt8], key: [UInt8], salt: [UInt8]) -> [UInt8] {
        let header = header(salt: salt)
        let payloadKey = payloadKey(key: key, salt: salt)
        let count = chunkCount(plaintextSize: Int64(plaintext.count))
        var out = header
        for index in 0..<count {
            let start = Int(index) * chunkSize, end = min(plaintext.count, start + chunkSize)
            out += sealChunk(plaintext[start..<end], key: payloadKey, counter: index, last: index == count - 1, header: header)
        }
        return out
    }

    /// Decrypts bytes in memory, expecting exactly `plaintextSize` bytes out.
    static func open(_ ciphertext: [UInt8], key: [UInt8], plaintextSize: Int64) throws(AttachmentError) -> [UInt8] {
        var opener = try AttachmentOpener(key: key, plaintextSize: plaintextSize, ciphertextSize: Int64(ciphertext.count))
        var out = try opener.feed(ciphertext[...])
        out += try opener.finish()
        return out
    }
}
