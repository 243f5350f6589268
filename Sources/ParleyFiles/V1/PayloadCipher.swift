import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Seals and opens single payload chunks: AES-256-GCM, nonce = 11-byte counter || last flag.
///
/// The cipher works in a buffer the caller reuses for every chunk (`AESGCMContext`); the key is derived by
/// swift-crypto and its schedule made once per file.
struct PayloadCipher {
    private let context: AESGCMContext

    /// The cipher of the file whose key and payload nonce are given.
    init(fileKey: [UInt8], payloadNonce: [UInt8]) {
        context = AESGCMContext(key: FileFormatV1.payloadKey(fileKey: fileKey, payloadNonce: payloadNonce))
    }

    /// `counter` as 11 big-endian bytes, then `01` for the last chunk or `00` otherwise.
    static func nonce(counter: UInt64, last: Bool) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 3)
        bytes.appendBigEndian(counter)
        bytes.append(last ? 1 : 0)
        return bytes
    }

    /// Seals one chunk into `scratch` (`ciphertext || tag`, at least a tag longer than the chunk) and writes it.
    func seal(
        _ chunk: UnsafeRawBufferPointer, counter: UInt64, last: Bool, scratch: UnsafeMutableRawBufferPointer,
        to output: ByteOutput
    ) throws {
        let sealedCount = context.seal(chunk, nonce: Self.nonce(counter: counter, last: last), into: scratch)
        try output.write(UnsafeRawBufferPointer(rebasing: scratch[0..<sealedCount]))
    }

    /// Opens one sealed chunk (`ciphertext || tag`) into `scratch` and returns the plaintext there; any failure is
    /// the opaque `cannotDecrypt`, and nothing of an unauthenticated chunk is returned.
    func open(
        _ sealed: UnsafeRawBufferPointer, counter: UInt64, last: Bool, scratch: UnsafeMutableRawBufferPointer
    ) throws -> UnsafeRawBufferPointer {
        precondition(sealed.count < FileFormatV1.tagLength || scratch.count >= sealed.count - FileFormatV1.tagLength,
                     "the scratch buffer is smaller than a chunk")
        guard let opened = context.open(sealed, nonce: Self.nonce(counter: counter, last: last), into: scratch) else {
            throw FileError.cannotDecrypt
        }
        return UnsafeRawBufferPointer(rebasing: scratch[0..<opened])
    }
}

/// The chunk arithmetic of a payload, for `inspect` and for tests: no key needed.
public enum PayloadLayout {
    /// The number of chunks and plaintext bytes of a payload of `payloadBytes` sealed bytes.
    public static func measure(payloadBytes: UInt64) throws -> (chunks: UInt64, plaintextBytes: UInt64) {
        let sealed = UInt64(FileFormatV1.sealedChunkSize)
        let tag = UInt64(FileFormatV1.tagLength)
        guard payloadBytes >= tag else { throw FileError.malformed("the payload is missing or truncated") }
        let chunks = (payloadBytes + sealed - 1) / sealed
        let last = payloadBytes - (chunks - 1) * sealed
        guard last >= tag else { throw FileError.malformed("\(last) stray bytes after the last chunk") }
        guard last > tag || chunks == 1 else { throw FileError.malformed("an empty last chunk follows a full one") }
        return (chunks, payloadBytes - chunks * tag)
    }
}
