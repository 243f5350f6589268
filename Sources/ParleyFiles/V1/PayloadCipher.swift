import CParleyOpenSSL
import Crypto
import Foundation

/// Seals and opens single payload chunks: AES-256-GCM, nonce = 11-byte counter || last flag.
///
/// The cipher is libcrypto's (EVP, through CParleyOpenSSL), working in a buffer the caller reuses for every chunk:
/// swift-crypto's `AES.GCM.seal` returns a new sealed box per call and assembles it by appending to a `Data`, and
/// that copying was 44 % of the CPU of sealing 1 GiB (docs/PERFORMANCE.md). The key is still derived and held by
/// swift-crypto; the bytes are those of the known-answer vectors either way.
struct PayloadCipher {
    private let key: SymmetricKey

    /// The cipher of the file whose key and payload nonce are given.
    init(fileKey: [UInt8], payloadNonce: [UInt8]) {
        key = FileFormatV1.payloadKey(fileKey: fileKey, payloadNonce: payloadNonce)
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
        let sealedCount = chunk.count + FileFormatV1.tagLength
        precondition(scratch.count >= sealedCount, "the scratch buffer is smaller than a sealed chunk")
        let out = scratch.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let sealed = key.withUnsafeBytes { key in
            parley_aes_256_gcm(
                1, key.baseAddress!.assumingMemoryBound(to: UInt8.self), Self.nonce(counter: counter, last: last),
                chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), chunk.count, out, out + chunk.count)
        }
        // Encrypting with a valid key and nonce does not fail short of libcrypto running out of memory.
        guard sealed == 1 else { throw FileError.io("encryption failed (out of memory?)") }
        try output.write(UnsafeRawBufferPointer(rebasing: scratch[0..<sealedCount]))
    }

    /// Opens one sealed chunk (`ciphertext || tag`) into `scratch` and returns the plaintext there; any failure is
    /// the opaque `cannotDecrypt`, and nothing of an unauthenticated chunk is returned.
    func open(
        _ sealed: UnsafeRawBufferPointer, counter: UInt64, last: Bool, scratch: UnsafeMutableRawBufferPointer
    ) throws -> UnsafeRawBufferPointer {
        let split = sealed.count - FileFormatV1.tagLength
        precondition(split >= 0 && scratch.count >= split, "the scratch buffer is smaller than a chunk")
        var tag = Array(UnsafeRawBufferPointer(rebasing: sealed[split...]))
        let opened = key.withUnsafeBytes { key in
            parley_aes_256_gcm(
                0, key.baseAddress!.assumingMemoryBound(to: UInt8.self), Self.nonce(counter: counter, last: last),
                sealed.baseAddress?.assumingMemoryBound(to: UInt8.self), split,
                scratch.baseAddress!.assumingMemoryBound(to: UInt8.self), &tag)
        }
        guard opened == 1 else { throw FileError.cannotDecrypt }
        return UnsafeRawBufferPointer(rebasing: scratch[0..<split])
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
