import Crypto

/// What a `SealedScratch` writes to its file is sealed, so decrypted plaintext never lies on the disk in the clear,
/// not even for a moment and not after the process died (docs/PGP.md, "Output checked at its end").
///
/// The scratch file's bytes are cut into chunks of `chunkSize` (the last one shorter, possibly empty), each sealed with
/// AES-256-GCM under a key made for this scratch file and held only in memory; the nonce is the chunk's number as 11
/// big-endian bytes, then `01` for the last chunk and `00` otherwise, so a chunk changed, moved, dropped or cut
/// off is refused when the file is read back. The cipher is the one `parley file` uses (`AESGCMContext`).
final class ScratchCipher {
    /// Plaintext bytes per sealed chunk.
    static let chunkSize = 1 << 16
    /// The GCM tag after each chunk.
    static let tagLength = 16

    private let context = AESGCMContext(key: SymmetricKey(size: .bits256))

    /// Seals `chunk` into `out` (`ciphertext ‖ tag`, at least a tag longer than the chunk); returns its length.
    func seal(_ chunk: UnsafeRawBufferPointer, number: UInt64, last: Bool, into out: UnsafeMutableRawBufferPointer) -> Int {
        context.seal(chunk, nonce: Self.nonce(number, last: last), into: out)
    }

    /// Opens a sealed chunk into `out`; returns the plaintext's length, or nil when it is not the chunk this scratch file
    /// wrote under this number and place.
    func open(_ sealed: UnsafeRawBufferPointer, number: UInt64, last: Bool, into out: UnsafeMutableRawBufferPointer) -> Int? {
        context.open(sealed, nonce: Self.nonce(number, last: last), into: out)
    }

    /// The chunk's number as 11 big-endian bytes, then `01` for the last chunk or `00`.
    static func nonce(_ number: UInt64, last: Bool) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 3)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
        bytes.append(last ? 1 : 0)
        return bytes
    }
}
