import CParleyOpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Secret bytes held in memory of their own and overwritten (OPENSSL_cleanse) when the last reference goes, the way
/// swift-crypto treats its own keys. For the Ed448 and X448 secrets, which live outside swift-crypto.
final class SecretBytes: @unchecked Sendable {
    // @unchecked: the buffer is written once, in init, and only read afterwards.
    private let storage: UnsafeMutableRawBufferPointer

    /// A private copy of `bytes`.
    init<D: DataProtocol>(_ bytes: D) {
        storage = .allocate(byteCount: max(bytes.count, 1), alignment: 1)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        storage.copyBytes(from: bytes)
        count = bytes.count
    }

    /// How many bytes are held.
    let count: Int

    /// Lends the bytes to `body` without copying them.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
    }

    /// A copy of the bytes, for writing a secret key packet (the copy is not wiped).
    var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    deinit {
        parley_cleanse(storage.baseAddress, storage.count)
        storage.deallocate()
    }
}
