internal import CCryptoBoringSSL
import Crypto

/// AES-256-GCM (12-byte nonce, 16-byte tag, no associated data) sealing and opening in buffers the caller reuses:
/// the chunk cipher of Parley v1 files (`PayloadCipher`) and of sealed scratch files (`ScratchCipher`).
///
/// It is BoringSSL's AEAD as swift-crypto builds it, the same code `AES.GCM` runs, reached through swift-crypto's C
/// module because `AES.GCM.seal` returns a new sealed box per call, assembled by appending to a `Data`: that copying
/// was 44 % of the CPU of a 1 GiB seal (docs/PERFORMANCE.md). The key schedule is made once per key, not per chunk.
/// Before this, the chunks went through libcrypto's EVP; BoringSSL's AES-GCM is about twice as fast on this machine,
/// and leaving libcrypto out lets `parley-file` run in less memory (docs/PERFORMANCE.md, "A program for files
/// alone"). The bytes are the same: the format's known-answer vectors pin them.
///
/// Sendable: after `init`, BoringSSL only reads the context (`EVP_AEAD_CTX_seal_scatter` and `open_gather` take it
/// `const`), so one context may seal and open on several threads at once.
final class AESGCMContext: @unchecked Sendable {
    /// The GCM tag's length.
    static let tagLength = 16
    /// The nonce's length.
    static let nonceLength = 12

    /// Allocated once, so its address is stable and no Swift access to a stored property is open while BoringSSL
    /// reads it.
    private let context = UnsafeMutablePointer<EVP_AEAD_CTX>.allocate(capacity: 1)

    /// A context for `key`, which must be 256 bits.
    init(key: SymmetricKey) {
        precondition(key.bitCount == 256, "AES-256-GCM needs a 256-bit key")
        CCryptoBoringSSL_EVP_AEAD_CTX_zero(context)
        let made = key.withUnsafeBytes { key in
            CCryptoBoringSSL_EVP_AEAD_CTX_init(
                context, CCryptoBoringSSL_EVP_aead_aes_256_gcm(), key.baseAddress?.assumingMemoryBound(to: UInt8.self),
                key.count, Self.tagLength, nil)
        }
        // Fails only when the key length is not the AEAD's, which the precondition rules out.
        precondition(made == 1, "AES-256-GCM could not take the key")
    }

    deinit {
        CCryptoBoringSSL_EVP_AEAD_CTX_cleanup(context)
        CCryptoBoringSSL_OPENSSL_cleanse(context, MemoryLayout<EVP_AEAD_CTX>.size)
        context.deallocate()
    }

    /// Seals `plaintext` into `out` as `ciphertext ‖ tag`; returns how many bytes that is (a tag more than the
    /// plaintext). `out` must hold that many.
    func seal(_ plaintext: UnsafeRawBufferPointer, nonce: [UInt8], into out: UnsafeMutableRawBufferPointer) -> Int {
        precondition(nonce.count == Self.nonceLength, "an AES-GCM nonce is 12 bytes")
        precondition(out.count >= plaintext.count + Self.tagLength, "the output is smaller than a sealed chunk")
        let target = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var tagLength = Self.tagLength
        let sealed = CCryptoBoringSSL_EVP_AEAD_CTX_seal_scatter(
            context, target, target + plaintext.count, &tagLength, Self.tagLength, nonce, nonce.count,
            plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self), plaintext.count, nil, 0, nil, 0)
        // With a good key, nonce and output, sealing fails only if the plaintext passes GCM's 64 GiB limit.
        precondition(sealed == 1 && tagLength == Self.tagLength, "AES-GCM could not seal a chunk")
        return plaintext.count + Self.tagLength
    }

    /// Opens `sealed` (`ciphertext ‖ tag`) into `out` and returns the plaintext's length, or nil when it is not what
    /// this key sealed under this nonce (or is shorter than a tag). Nothing is kept in `out` on failure.
    func open(_ sealed: UnsafeRawBufferPointer, nonce: [UInt8], into out: UnsafeMutableRawBufferPointer) -> Int? {
        precondition(nonce.count == Self.nonceLength, "an AES-GCM nonce is 12 bytes")
        let length = sealed.count - Self.tagLength
        guard length >= 0, out.count >= length else { return nil }
        let input = sealed.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let target = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let opened = CCryptoBoringSSL_EVP_AEAD_CTX_open_gather(
            context, target, nonce, nonce.count, input, length, input.map { $0 + length }, Self.tagLength, nil, 0)
        guard opened == 1 else {
            CCryptoBoringSSL_OPENSSL_cleanse(target, length)
            return nil
        }
        return length
    }
}
