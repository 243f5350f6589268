import Crypto
import ParleyCrypto

/// Decrypts a SEIPD v1 body as a stream. The last 22 plaintext bytes (the MDC packet) are always held
/// back; at the end of the body the MDC is checked and `.badMDC` thrown when it does not match, so a
/// reader that reached the end has read only authenticated data — but what it read earlier was not yet
/// authenticated, which is why callers write to a temporary file and release it only after the end.
final class SEIPDDecryptingInput: PGPInput {
    /// The MDC packet: tag and length octets, then the SHA-1 digest.
    private static let mdcLength = 22
    /// Ciphertext decrypted per call: 256 KiB, as `SEIPDEncryptingSink.stageSize`.
    private static let stageSize = SEIPDEncryptingSink.stageSize
    private let body: PGPInput
    private var cfb: CFBStream
    private var sha1 = Insecure.SHA1()
    /// Ciphertext short of a whole block, waiting for the rest of it (at most 15 bytes between calls).
    private var pendingCipher: [UInt8] = []
    /// Decrypted bytes: returned before `heldStart`, not yet after it; the last 22 may be the MDC packet.
    private var held: [UInt8] = []
    private var heldStart = 0
    /// How much of `held` the MDC hash has taken in (it runs ahead of or behind what was returned).
    private var hashedUpTo = 0
    /// One stage's plaintext on its way into `held`, kept apart while the hash reads `held`.
    private var scratch: [UInt8] = []
    private var finished = false
    private var total = 0

    /// Starts decrypting after the version byte; throws `.noMatchingKey` when the quick check fails.
    init(body: PGPInput, firstChunk: [UInt8], sessionKey: SessionKey) throws {
        self.body = body
        cfb = CFBStream(key: sessionKey.key, encrypting: false)
        pendingCipher = firstChunk
        try decryptPending(final: false)
        guard held.count >= 18 else {
            // Too short for the prefix: nothing to check the key against.
            throw PGPError.truncated
        }
        guard held[14] == held[16], held[15] == held[17] else { throw PGPError.noMatchingKey }
        heldStart = 18
    }

    /// Whether `sessionKey` passes the quick check on the first ciphertext bytes (without consuming anything).
    static func quickCheck(_ firstChunk: [UInt8], sessionKey: SessionKey) -> Bool {
        guard firstChunk.count >= 32, var cfb = Optional(CFBStream(key: sessionKey.key, encrypting: false)),
              let plain = try? cfb.process(Array(firstChunk[0..<32])) else { return false }
        return plain[14] == plain[16] && plain[15] == plain[17]
    }

    /// Decrypts the whole blocks of pending ciphertext (all of it when `final`), keeping the rest.
    private func decryptPending(final: Bool) throws {
        let usable = final ? pendingCipher.count : pendingCipher.count / 16 * 16
        try decryptInPlace(pendingCipher[0..<usable])
        // At most 15 bytes are left to move.
        pendingCipher.removeFirst(usable)
    }

    /// Decrypts `cipher` onto the end of `held` while the MDC hash takes in the held bytes that can no
    /// longer be part of the MDC packet (all but the last 22). The hash and two halves of the decryption
    /// are independent, so they run at once (`inParallel`) and a free core shortens the stage.
    private func decryptInPlace(_ cipher: ArraySlice<UInt8>) throws {
        guard !cipher.isEmpty else { return }
        let hashable = max(hashedUpTo, held.count - Self.mdcLength)
        if scratch.count != cipher.count { scratch = [UInt8](repeating: 0, count: cipher.count) }
        try held.withUnsafeBytes { held in
            let toHash = UnsafeRawBufferPointer(rebasing: held[hashedUpTo..<hashable])
            try cipher.withUnsafeBytes { cipher in
                try scratch.withUnsafeMutableBytes { plain in
                    let pieces = cipher.count >= Self.stageSize / 2 ? 2 : 1
                    try inParallel(pieces + 1, serially: cipher.count + toHash.count < 1 << 16) { pass in
                        if pass == pieces {
                            sha1.update(bufferPointer: toHash)
                        } else {
                            try cfb.decryptPiece(pass, of: pieces, cipher, into: plain)
                        }
                    }
                }
                cfb.chain(past: cipher)
            }
        }
        hashedUpTo = hashable
        // Bytes both returned and hashed are dropped before the new ones are added: usually only the
        // 22 held back move.
        let dropped = min(heldStart, hashedUpTo)
        held.removeSubrange(0..<dropped)
        heldStart -= dropped
        hashedUpTo -= dropped
        held += scratch
        total += cipher.count
    }

    func read(upTo count: Int) throws -> [UInt8] {
        let wanted = min(count, PGPStream.chunkSize)
        while !finished, held.count - heldStart - Self.mdcLength < wanted {
            // A stage of ciphertext is gathered first, so each decryption (and the hash beside it) is one
            // large call whatever partial lengths the sender chose.
            var ended = false
            while pendingCipher.count < Self.stageSize {
                let chunk = try body.read(upTo: Self.stageSize - pendingCipher.count)
                if chunk.isEmpty {
                    ended = true
                    break
                }
                pendingCipher += chunk
            }
            try decryptPending(final: ended)
            if ended {
                try checkMDC()
                finished = true
            }
        }
        let take = min(count, max(0, held.count - heldStart - Self.mdcLength))
        guard take > 0 else { return [] }
        defer { heldStart += take }
        return Array(held[heldStart..<(heldStart + take)])
    }

    /// At the end of the body: the held bytes end with the MDC packet over everything before it.
    private func checkMDC() throws {
        // Prefix (18) + MDC packet (22) is the least a SEIPD can hold, as SEIPD.decrypt requires.
        guard total >= 18 + Self.mdcLength else { throw PGPError.truncated }
        let mdcStart = held.count - Self.mdcLength
        var hash = sha1
        held[hashedUpTo..<(mdcStart + 2)].withUnsafeBytes { hash.update(bufferPointer: $0) }
        let expected = [0xD3, 0x14] + Array(hash.finalize())
        guard ConstantTime.equals(Array(held[mdcStart...]), expected) else { throw PGPError.badMDC }
    }
}
