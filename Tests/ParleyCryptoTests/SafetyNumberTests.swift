import ParleyCrypto
import Testing

@Suite("Safety numbers and fingerprints")
struct SafetyNumberTests {
    static let aliceKey = [UInt8](hex: "0506863bc66d02b40d27b8d49ca7c09e9239236f9d7d25d6fcca5ce13c7064d868")
    static let bobKey = [UInt8](hex: "05f781b6fb32fed9ba1cf2de978d4d5da28dc34046ae814402b5c0dbd96fda907b")
    static let expected = "300354477692869396892869876765458257569162576843440918079131"

    @Test("reproduces Signal's published vector")
    func signalVector() throws {
        let alice = try Fingerprint(encodedKey: Self.aliceKey, id: "+14152222222")
        let bob = try Fingerprint(encodedKey: Self.bobKey, id: "+14153333333")
        #expect(SafetyNumber(alice, bob).digits == Self.expected)
        #expect(SafetyNumber(bob, alice).digits == Self.expected)
    }

    @Test("groups of five: 12 groups for the safety number, 6 for a fingerprint")
    func grouping() throws {
        let alice = try Fingerprint(encodedKey: Self.aliceKey, id: "+14152222222")
        let bob = try Fingerprint(encodedKey: Self.bobKey, id: "+14153333333")
        let number = SafetyNumber(alice, bob)
        #expect(number.grouped == "30035 44776 92869 39689 28698 76765 45825 75691 62576 84344 09180 79131")
        #expect(alice.grouped.split(separator: " ").count == 6)
    }

    @Test("a different id or key changes the fingerprint")
    func sensitivity() throws {
        let base = try Fingerprint(encodedKey: Self.aliceKey, id: "+14152222222")
        #expect(try Fingerprint(encodedKey: Self.aliceKey, id: "+14152222223") != base)
        var key = Self.aliceKey
        key[32] ^= 1
        #expect(try Fingerprint(encodedKey: key, id: "+14152222222") != base)
    }

    @Test("keys that are not 33 bytes starting 0x05 are refused")
    func invalidKeys() {
        var wrongPrefix = Self.aliceKey
        wrongPrefix[0] = 0x06
        for key in [[], Array(Self.aliceKey.dropLast()), Self.aliceKey + [0], wrongPrefix] {
            #expect(throws: VerificationError.invalidIdentityKey) { try Fingerprint(encodedKey: key, id: "x") }
        }
    }
}

@Suite("Verification QR payload")
struct VerificationPayloadTests {
    static let key = [UInt8](repeating: 0xAB, count: 32)

    @Test("encodes to the documented bytes and decodes back")
    func roundTrip() throws {
        let payload = try VerificationPayload(accountID: "ann@example.org", identityKey: Self.key)
        let bytes = payload.encoded()
        #expect(bytes.hex == "010f" + Array("ann@example.org".utf8).hex + Self.key.hex)
        #expect(try VerificationPayload(decoding: bytes) == payload)
    }

    @Test("non-ASCII ids are carried as UTF-8")
    func unicodeID() throws {
        let payload = try VerificationPayload(accountID: "zoë@例え.jp", identityKey: Self.key)
        #expect(try VerificationPayload(decoding: payload.encoded()).accountID == "zoë@例え.jp")
    }

    @Test("strict decoding refuses every malformed payload")
    func strict() throws {
        let good = try VerificationPayload(accountID: "ann@example.org", identityKey: Self.key).encoded()
        #expect(throws: VerificationError.unsupportedVersion(2)) { try VerificationPayload(decoding: [2] + good.dropFirst()) }
        #expect(throws: VerificationError.malformedPayload) { try VerificationPayload(decoding: good + [0]) }
        for length in 0..<good.count {
            #expect(throws: VerificationError.self) { try VerificationPayload(decoding: good.prefix(length)) }
        }
        #expect(throws: VerificationError.invalidAccountID) { try VerificationPayload(decoding: [1, 0] + Self.key) }
        #expect(throws: VerificationError.invalidAccountID) { try VerificationPayload(decoding: [1, 2, 0xC3, 0x28] + Self.key) }
    }

    @Test("ids of 0 or more than 255 bytes and keys not 32 bytes cannot be encoded")
    func encodeLimits() {
        #expect(throws: VerificationError.invalidAccountID) { try VerificationPayload(accountID: "", identityKey: Self.key) }
        #expect(throws: VerificationError.invalidAccountID) {
            try VerificationPayload(accountID: String(repeating: "a", count: 256), identityKey: Self.key)
        }
        #expect(throws: VerificationError.invalidIdentityKey) { try VerificationPayload(accountID: "a", identityKey: [1, 2]) }
    }
}

import Crypto

@Suite("Safety numbers from Ed25519 identity keys")
struct IdentityKeySafetyNumberTests {
    @Test("an Ed25519 identity key is fingerprinted through its X25519 form")
    func throughConversion() throws {
        let key = Curve25519.Signing.PrivateKey().publicKey
        let montgomery = try IdentityKeyConversion.x25519PublicKeyBytes(fromEd25519: key.rawRepresentation)
        #expect(try Fingerprint(identityKey: key, id: "ann@example.org")
            == Fingerprint(encodedKey: [0x05] + montgomery, id: "ann@example.org"))
    }

    @Test("both sides compute the same safety number")
    func symmetric() throws {
        let ann = Curve25519.Signing.PrivateKey().publicKey
        let bob = Curve25519.Signing.PrivateKey().publicKey
        let seenByAnn = try SafetyNumber(local: (ann, "ann@example.org"), remote: (bob, "bob@example.org"))
        let seenByBob = try SafetyNumber(local: (bob, "bob@example.org"), remote: (ann, "ann@example.org"))
        #expect(seenByAnn == seenByBob)
        #expect(seenByAnn.digits.count == 60)
    }

    @Test("a small-order identity key has no safety number")
    func smallOrder() throws {
        var identity = [UInt8](repeating: 0, count: 32)
        identity[0] = 1
        let key = try Curve25519.Signing.PublicKey(rawRepresentation: identity)
        #expect(throws: VerificationError.invalidIdentityKey) { try Fingerprint(identityKey: key, id: "x") }
    }
}
