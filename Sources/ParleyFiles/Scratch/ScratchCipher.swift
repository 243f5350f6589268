import CParleyOpenSSL
import Crypto

/// What a `SealedScratch` writes to its file is sealed, so decrypted plaintext never lies on the disk in the clear,
/// not even for a moment and not after the process died (docs/PGP.md, "Output checked at its end").
///
/// The scratch file's bytes are cut into chunks of `chunkSize` (the last one shorter, possibly empty), each sealed with
/// AES-256-GCM under a key made for this scratch file and held only in memory; the nonce is the chunk's number as 11
/// big-endian bytes, then `01` for the last chunk and `00` otherwise, so a chunk changed, moved, dropped or cut
/// off is refused when the file is read back. The cipher is libcrypto's, as for `parley file` (PayloadCipher).
final class ScratchCipher {
    /// Plaintext bytes per sealed chunk.
    static let chunkSize = 1 << 16
    /// The GCM tag after each chunk.
    static let tagLength = 16

    private let key = SymmetricKey(size: .bits256)

    /// Seals `chunk` into `out` (`ciphertext ‖ tag`, at least a tag longer than the chunk); returns its length.
    func seal(_ chunk: UnsafeRawBufferPointer, number: UInt64, last: Bool, into out: UnsafeMutableRawBufferPointer) -> Int {
        precondition(out.count >= chunk.count + Self.tagLength, "the scratch buffer is smaller than a sealed chunk")
        let target = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let sealed = key.withUnsafeBytes { key in
            parley_aes_256_gcm(1, key.baseAddress!.assumingMemoryBound(to: UInt8.self), Self.nonce(number, last: last),
                               chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), chunk.count, target, target + chunk.count)
        }
        // Sealing with a valid key and nonce fails only when libcrypto cannot allocate its context.
        precondition(sealed == 1, "AES-GCM could not seal a scratch chunk")
        return chunk.count + Self.tagLength
    }

    /// Opens a sealed chunk into `out`; returns the plaintext's length, or nil when it is not the chunk this scratch file
    /// wrote under this number and place.
    func open(_ sealed: UnsafeRawBufferPointer, number: UInt64, last: Bool, into out: UnsafeMutableRawBufferPointer) -> Int? {
        let length = sealed.count - Self.tagLength
        guard length >= 0, out.count >= length else { return nil }
        var tag = Array(UnsafeRawBufferPointer(rebasing: sealed[length...]))
        let opened = key.withUnsafeBytes { key in
            parley_aes_256_gcm(0, key.baseAddress!.assumingMemoryBound(to: UInt8.self), Self.nonce(number, last: last),
                               sealed.baseAddress?.assumingMemoryBound(to: UInt8.self), length,
                               out.baseAddress!.assumingMemoryBound(to: UInt8.self), &tag)
        }
        return opened == 1 ? length : nil
    }

    /// The chunk's number as 11 big-endian bytes, then `01` for the last chunk or `00`.
    static func nonce(_ number: UInt64, last: Bool) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 3)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
        bytes.append(last ? 1 : 0)
        return bytes
    }
}
