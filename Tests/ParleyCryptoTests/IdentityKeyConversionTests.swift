import Crypto
import Foundation
import ParleyCrypto
import Testing

/// Known-answer vectors generated from libsodium by scripts/vectors/generate_ed25519_to_x25519.py.
private struct ConversionVectors: Decodable {
    struct Valid: Decodable {
        let name: String
        let seed: String
        let ed25519Public: String
        let x25519Private: String
        let x25519Public: String
    }

    struct AcceptedPublic: Decodable {
        let name: String
        let ed25519Public: String
        let x25519Public: String
    }

    struct Invalid: Decodable {
        let name: String
        let ed25519Public: String
        let error: String
    }

    let valid: [Valid]
    let acceptedPublicOnly: [AcceptedPublic]
    let invalid: [Invalid]

    static func load() throws -> ConversionVectors {
        let url = try #require(Bundle.module.url(
            forResource: "ed25519-to-x25519", withExtension: "json", subdirectory: "Vectors"))
        return try JSONDecoder().decode(ConversionVectors.self, from: Data(contentsOf: url))
    }
}

private func bytes(hex: String) throws -> [UInt8] {
    let digits = Array(hex.utf8)
    try #require(digits.count.isMultiple(of: 2))
    return try stride(from: 0, to: digits.count, by: 2).map { index in
        try #require(UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16))
    }
}

private func hex(_ bytes: some DataProtocol) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

private func expectedError(named name: String) -> IdentityKeyConversion.Error? {
    switch name {
    case "invalidLength": .invalidLength
    case "smallOrder": .smallOrder
    case "nonCanonicalEncoding": .nonCanonicalEncoding
    case "notOnCurve": .notOnCurve
    case "notInPrimeOrderSubgroup": .notInPrimeOrderSubgroup
    default: nil
    }
}

@Suite("IdentityKeyConversion")
struct IdentityKeyConversionTests {
    @Test("the vector file has the promised coverage")
    func vectorCoverage() throws {
        let vectors = try ConversionVectors.load()
        #expect(vectors.valid.count >= 40)
        #expect(!vectors.acceptedPublicOnly.isEmpty)
        let categories = Set(vectors.invalid.map(\.error))
        #expect(categories == [
            "invalidLength", "smallOrder", "nonCanonicalEncoding", "notOnCurve", "notInPrimeOrderSubgroup",
        ])
    }

    @Test("valid key pairs convert exactly as libsodium does")
    func validVectors() throws {
        for vector in try ConversionVectors.load().valid {
            let signing = try Curve25519.Signing.PrivateKey(rawRepresentation: bytes(hex: vector.seed))
            #expect(hex(signing.publicKey.rawRepresentation) == vector.ed25519Public, "\(vector.name)")

            let agreementPrivate = IdentityKeyConversion.x25519PrivateKey(from: signing)
            #expect(hex(agreementPrivate.rawRepresentation) == vector.x25519Private, "\(vector.name)")

            let publicBytes = try IdentityKeyConversion.x25519PublicKeyBytes(
                fromEd25519: bytes(hex: vector.ed25519Public))
            #expect(hex(publicBytes) == vector.x25519Public, "\(vector.name)")

            let agreementPublic = try IdentityKeyConversion.x25519PublicKey(from: signing.publicKey)
            #expect(hex(agreementPublic.rawRepresentation) == vector.x25519Public, "\(vector.name)")
            // The converted private key's own public key is the converted public key.
            #expect(hex(agreementPrivate.publicKey.rawRepresentation) == vector.x25519Public, "\(vector.name)")
        }
    }

    @Test("edge-case public keys libsodium accepts are accepted with the same result")
    func acceptedPublicKeys() throws {
        for vector in try ConversionVectors.load().acceptedPublicOnly {
            let converted = try IdentityKeyConversion.x25519PublicKeyBytes(
                fromEd25519: bytes(hex: vector.ed25519Public))
            #expect(hex(converted) == vector.x25519Public, "\(vector.name)")
        }
    }

    @Test("public keys libsodium rejects throw the documented error")
    func invalidVectors() throws {
        for vector in try ConversionVectors.load().invalid {
            let expected = try #require(expectedError(named: vector.error), "\(vector.name)")
            let input = try bytes(hex: vector.ed25519Public)
            #expect(throws: expected, "\(vector.name)") {
                try IdentityKeyConversion.x25519PublicKeyBytes(fromEd25519: input)
            }
        }
    }

    @Test("Curve25519.Signing.PublicKey inputs that libsodium rejects are rejected too")
    func invalidSigningPublicKeys() throws {
        // swift-crypto accepts any 32 bytes as an Ed25519 public key, so the typed
        // entry point must run the same checks as the byte-level one.
        for vector in try ConversionVectors.load().invalid where vector.ed25519Public.count == 64 {
            let expected = try #require(expectedError(named: vector.error))
            let key = try Curve25519.Signing.PublicKey(rawRepresentation: bytes(hex: vector.ed25519Public))
            #expect(throws: expected, "\(vector.name)") {
                try IdentityKeyConversion.x25519PublicKey(from: key)
            }
        }
    }

    @Test("DH with converted keys agrees in both directions")
    func diffieHellmanAgreement() throws {
        for _ in 0..<32 {
            let alice = Curve25519.Signing.PrivateKey()
            let bob = Curve25519.Signing.PrivateKey()
            let aliceToBob = try IdentityKeyConversion.x25519PrivateKey(from: alice)
                .sharedSecretFromKeyAgreement(with: IdentityKeyConversion.x25519PublicKey(from: bob.publicKey))
            let bobToAlice = try IdentityKeyConversion.x25519PrivateKey(from: bob)
                .sharedSecretFromKeyAgreement(with: IdentityKeyConversion.x25519PublicKey(from: alice.publicKey))
            #expect(aliceToBob == bobToAlice)
        }
    }

    @Test("every length other than 32 is rejected without a crash", arguments: Array(0...64).filter { $0 != 32 })
    func wrongLengths(length: Int) {
        for fill: UInt8 in [0x00, 0x5A, 0xFF] {
            #expect(throws: IdentityKeyConversion.Error.invalidLength) {
                try IdentityKeyConversion.x25519PublicKeyBytes(fromEd25519: [UInt8](repeating: fill, count: length))
            }
        }
    }

    @Test("random 32-byte garbage is converted or rejected, never crashes")
    func randomGarbage() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<64 {
            let garbage = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            do {
                let converted = try IdentityKeyConversion.x25519PublicKeyBytes(fromEd25519: garbage)
                #expect(converted.count == 32)
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test("error descriptions are readable and distinct")
    func descriptions() {
        let all: [IdentityKeyConversion.Error] = [
            .invalidLength, .smallOrder, .nonCanonicalEncoding, .notOnCurve, .notInPrimeOrderSubgroup,
        ]
        #expect(Set(all.map(\.description)).count == all.count)
        #expect(all.allSatisfy { $0.description.hasPrefix("The identity public key") })
    }
}
