import Crypto
import _CryptoExtras

/// Full-block AES-CFB over a stream: chunks of whole blocks chain through the last ciphertext block,
/// and only the final call may hold a partial block — the same bytes `OpenPGPCFB` makes in one go.
struct CFBStream {
    private let key: SymmetricKey
    private var iv = [UInt8](repeating: 0, count: 16)
    private let encrypting: Bool

    init(key: [UInt8], encrypting: Bool) {
        self.key = SymmetricKey(data: key)
        self.encrypting = encrypting
    }

    /// Processes `bytes`, whose length must be a multiple of 16 unless it is the last call.
    mutating func process(_ bytes: [UInt8]) throws -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        let iv = try AES._CFB.IV(ivBytes: self.iv)
        let out = encrypting ? Array(try AES._CFB.encrypt(bytes, using: key, iv: iv)) : Array(try AES._CFB.decrypt(bytes, using: key, iv: iv))
        let ciphertext = encrypting ? out : bytes
        if ciphertext.count >= 16 { self.iv = Array(ciphertext.suffix(16)) }
        return out
    }
}

/// Decrypts a SEIPD v1 body as a stream. The last 22 plaintext bytes (the MDC packet) are always held
/// back; at the end of the body the MDC is checked and `.badMDC` thrown when it does not match, so a
/// reader that reached the end has read only authenticated data — but what it read earlier was not yet
/// authenticated, which is why callers write to a temporary file and release it only after the end.
final class SEIPDDecryptingInput: PGPInput {
    private let body: PGPInput
    private var cfb: CFBStream
    private var sha1 = Insecure.SHA1()
    private var pendingCipher: [UInt8] = []
    private var held: [UInt8] = []
    private var finished = false
    private var total = 0

    /// Starts decrypting after the version byte; throws `.noMatchingKey` when the quick check fails.
    init(body: PGPInput, firstChunk: [UInt8], sessionKey: SessionKey) throws {
        self.body = body
        cfb = CFBStream(key: sessionKey.key, encrypting: false)
        pendingCipher = firstChunk
        guard try decryptAvailable(final: false), held.count >= 18 else {
            // Too short for the prefix: nothing to check the key against.
            throw PGPError.truncated
        }
        guard held[14] == held[16], held[15] == held[17] else { throw PGPError.noMatchingKey }
        sha1.update(data: held[0..<18])
        held.removeFirst(18)
    }

    /// Whether `sessionKey` passes the quick check on the first ciphertext bytes (without consuming anything).
    static func quickCheck(_ firstChunk: [UInt8], sessionKey: SessionKey) -> Bool {
        guard firstChunk.count >= 32, var cfb = Optional(CFBStream(key: sessionKey.key, encrypting: false)),
              let plain = try? cfb.process(Array(firstChunk[0..<32])) else { return false }
        return plain[14] == plain[16] && plain[15] == plain[17]
    }

    /// Decrypts every whole block pending (all of it at the end); returns false when nothing was added.
    @discardableResult
    private func decryptAvailable(final: Bool) throws -> Bool {
        let usable = final ? pendingCipher.count : pendingCipher.count / 16 * 16
        guard usable > 0 else { return false }
        let plain = try cfb.process(Array(pendingCipher[0..<usable]))
        pendingCipher.removeFirst(usable)
        total += plain.count
        held += plain
        return true
    }

    func read(upTo count: Int) throws -> [UInt8] {
        let wanted = min(count, PGPStream.chunkSize)
        while !finished, held.count - 22 < wanted {
            let chunk = try body.read(upTo: PGPStream.chunkSize)
            if chunk.isEmpty {
                try decryptAvailable(final: true)
                try checkMDC()
                finished = true
            } else {
                pendingCipher += chunk
                try decryptAvailable(final: false)
            }
        }
        let take = min(count, max(0, held.count - 22))
        guard take > 0 else { return [] }
        let out = Array(held[0..<take])
        held.removeFirst(take)
        if !finished { sha1.update(data: out) }
        return out
    }

    /// At the end of the body: the held bytes end with the MDC packet over everything before it.
    private func checkMDC() throws {
        // Prefix (18) + MDC packet (22) is the least a SEIPD can hold, as SEIPD.decrypt requires.
        guard total >= 18 + 22 else { throw PGPError.truncated }
        let mdcStart = held.count - 22
        var hash = sha1
        hash.update(data: held[0..<(mdcStart + 2)])
        let expected = [0xD3, 0x14] + Array(hash.finalize())
        guard constantTimeEqual(Array(held[mdcStart...]), expected) else { throw PGPError.badMDC }
    }
}
