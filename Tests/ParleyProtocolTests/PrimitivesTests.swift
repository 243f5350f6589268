import Crypto
import ParleyTestSupport
import Testing
@testable import ParleyProtocol

/// The protocol's own evaluation of HKDF with a zero salt must be swift-crypto's HKDF, byte for byte.
@Suite struct PrimitivesTests {
    /// Random key material, info strings of every length up to two SHA-256 blocks, and every
    /// output length from 1 to 4 blocks (the protocol uses 44): no difference from `HKDF<SHA256>`.
    @Test func zeroSaltHKDFEqualsSwiftCrypto() {
        var rng = SplitMix64(state: 0x5EED_4B0F)
        for round in 0..<2_000 {
            let ikm = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let info = (0..<(round % 65)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let count = 1 + round % 128
            let expected = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: ikm), salt: [UInt8](repeating: 0, count: 32), info: info,
                outputByteCount: count
            ).withUnsafeBytes { Array($0) }
            #expect(Primitives.hkdfZeroSalt(ikm: ikm, info: info, count: count) == expected)
        }
    }

    /// The message-key derivation at the sizes the protocol uses, against RFC 5869's own
    /// construction computed with the general-purpose `Primitives.hkdf`.
    @Test func messageKeysMatchGeneralHKDF() {
        let messageKey = [UInt8](repeating: 0x42, count: 32)
        for info in [ProtocolConstants.messageKeysInfo, ProtocolConstants.senderKeyInfo] {
            let keys = MessageKeys(messageKey: messageKey, info: info)
            let reference = Primitives.hkdf(
                salt: [UInt8](repeating: 0, count: 32), ikm: messageKey, info: info, count: 44)
            #expect(keys.key == Array(reference[0..<32]))
            #expect(keys.nonce == Array(reference[32..<44]))
        }
    }
}
