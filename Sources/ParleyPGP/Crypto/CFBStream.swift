import CParleyGcrypt
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Full-block AES-CFB over a stream: chunks of whole blocks chain through the last ciphertext block,
/// and only the final call may hold a partial block — the same bytes `OpenPGPCFB` makes in one go.
///
/// The cipher is libgcrypt's CFB-128 (`parley_gcry_aes_cfb`, CParleyGcrypt): it decrypts eight blocks at a time with
/// AES-NI, where swift-crypto's `AES._CFB` makes one call per block (docs/PERFORMANCE.md, OpenPGP); this type only
/// carries the chaining value between calls.
struct CFBStream: Sendable {
    private let key: [UInt8]
    private var iv: [UInt8]
    private let encrypting: Bool

    /// A stream under `key` from `iv` (OpenPGP's SEIPD v1: all zero, its random prefix standing in for an IV).
    init(key: [UInt8], iv: [UInt8] = [UInt8](repeating: 0, count: 16), encrypting: Bool) {
        precondition(iv.count == 16)
        self.key = key
        self.iv = iv
        self.encrypting = encrypting
    }

    /// Processes `bytes`, whose length must be a multiple of 16 unless it is the last call, and returns the result.
    mutating func process(_ bytes: UnsafeRawBufferPointer) throws -> Data {
        guard !bytes.isEmpty else { return Data() }
        var out = Data(count: bytes.count)
        try out.withUnsafeMutableBytes { try Self.cfb(encrypting, key: key, iv: iv, bytes, into: $0) }
        // The next chaining value is the last ciphertext block: the output when encrypting, the input when not.
        if encrypting {
            if out.count >= 16 { self.iv = Array(out.suffix(16)) }
        } else if bytes.count >= 16 {
            self.iv = Array(bytes[(bytes.count - 16)...])
        }
        return out
    }

    /// Decrypts piece `index` of `count` of `cipher` into the same bytes of `out` (as long as `cipher`).
    ///
    /// Unlike encryption, CFB decryption of a block needs only the ciphertext block before it, so the
    /// pieces are independent and may run on different threads; call `chain(past:)` once all are done.
    func decryptPiece(_ index: Int, of count: Int, _ cipher: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) throws {
        precondition(!encrypting && out.count == cipher.count)
        let blocks = (cipher.count + 15) / 16
        let start = blocks * index / count * 16
        let end = min(cipher.count, blocks * (index + 1) / count * 16)
        guard start < end else { return }
        let iv = start == 0 ? self.iv : Array(cipher[(start - 16)..<start])
        try Self.cfb(false, key: key, iv: iv, UnsafeRawBufferPointer(rebasing: cipher[start..<end]),
                     into: UnsafeMutableRawBufferPointer(rebasing: out[start..<end]))
    }

    /// Moves the chaining value past `cipher`, after `decryptPiece` decrypted all of it.
    mutating func chain(past cipher: UnsafeRawBufferPointer) {
        if cipher.count >= 16 { iv = Array(cipher[(cipher.count - 16)...]) }
    }

    /// Processes `bytes` (see the other `process`) into a new array.
    mutating func process(_ bytes: [UInt8]) throws -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        return try bytes.withUnsafeBytes { Array(try process($0)) }
    }

    /// One call of libgcrypt's CFB over `input` into `output` (as long).
    private static func cfb(_ encrypt: Bool, key: [UInt8], iv: [UInt8], _ input: UnsafeRawBufferPointer,
                            into output: UnsafeMutableRawBufferPointer) throws {
        precondition(output.count == input.count && iv.count == 16)
        guard !input.isEmpty else { return }
        let done = key.withUnsafeBufferPointer { key in
            iv.withUnsafeBufferPointer { iv in
                parley_gcry_aes_cfb(encrypt ? 1 : 0, key.baseAddress, key.count, iv.baseAddress,
                                    input.bindMemory(to: UInt8.self).baseAddress, input.count,
                                    output.bindMemory(to: UInt8.self).baseAddress)
            }
        }
        guard done == 1 else { throw PGPError.unsupported("an AES key of \(key.count) bytes") }
    }
}
