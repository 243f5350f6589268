import Crypto
import Foundation

/// Seals and opens single payload chunks: AES-256-GCM, nonce = 11-byte counter || last flag.
struct PayloadCipher {
    private let key: SymmetricKey

    /// The cipher of the file whose key and payload nonce are given.
    init(fileKey: [UInt8], payloadNonce: [UInt8]) {
        key = FileFormatV1.payloadKey(fileKey: fileKey, payloadNonce: payloadNonce)
    }

    /// `counter` as 11 big-endian bytes, then `01` for the last chunk or `00` otherwise.
    static func nonce(counter: UInt64, last: Bool) -> AES.GCM.Nonce {
        var bytes = [UInt8](repeating: 0, count: 3)
        bytes.appendBigEndian(counter)
        bytes.append(last ? 1 : 0)
        // Twelve bytes is always a valid GCM nonce length.
        return try! AES.GCM.Nonce(data: bytes)
    }

    /// Seals one chunk and writes `ciphertext || tag`.
    func seal(_ chunk: UnsafeRawBufferPointer, counter: UInt64, last: Bool, to output: ByteOutput) throws {
        let box = try AES.GCM.seal(chunk, using: key, nonce: Self.nonce(counter: counter, last: last))
        try output.write(box.ciphertext)
        try output.write(box.tag)
    }

    /// Opens one sealed chunk (`ciphertext || tag`); any failure is the opaque `cannotDecrypt`.
    func open(_ sealed: UnsafeRawBufferPointer, counter: UInt64, last: Bool) throws -> Data {
        let split = sealed.count - FileFormatV1.tagLength
        do {
            let box = try AES.GCM.SealedBox(
                nonce: Self.nonce(counter: counter, last: last),
                ciphertext: UnsafeRawBufferPointer(rebasing: sealed[0..<split]),
                tag: UnsafeRawBufferPointer(rebasing: sealed[split...]))
            return try AES.GCM.open(box, using: key)
        } catch {
            throw FileError.cannotDecrypt
        }
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
