import CParleyOpenSSL
@testable import ParleyPGP
import Testing

/// RFC 8032 §7.4 (Ed448) and RFC 7748 §5.2/§6.2 (X448) known answers, through the C wrappers over OpenSSL and through
/// ParleyPGP's Curve448 types; altered inputs must be refused.
@Suite struct Curve448VectorTests {
    typealias V = Curve448Vectors

    /// The pure (empty-context) vectors, and the one RFC 8032 made with context "foo".
    static let pure = V.ed448.vectors.filter { $0.context.isEmpty }
    static let withContext = V.ed448.vectors.filter { !$0.context.isEmpty }

    static func flipped(_ bytes: [UInt8], at index: Int) -> [UInt8] {
        var bytes = bytes
        bytes[index] ^= 0x01
        return bytes
    }

    @Test("Ed448 through the C wrapper: RFC 8032 public keys and signatures, and flipped bits refused")
    func ed448C() throws {
        #expect(Self.pure.count == 7 && Self.withContext.count == 1)
        for vector in Self.pure {
            let secret = [UInt8](hex: vector.secret), message = [UInt8](hex: vector.message), expected = [UInt8](hex: vector.signature)
            var publicKey = [UInt8](repeating: 0, count: 57), signature = [UInt8](repeating: 0, count: 114)
            #expect(parley_ed448_public_key(secret, &publicKey) == 1)
            #expect(publicKey.hex == vector.public, "\(vector.name)")
            #expect(parley_ed448_sign(secret, message, message.count, &signature) == 1)
            #expect(signature == expected, "\(vector.name)")
            #expect(parley_ed448_verify(publicKey, message, message.count, expected) == 1, "\(vector.name)")
            for index in [0, 56, 57, 113] {
                #expect(parley_ed448_verify(publicKey, message, message.count, Self.flipped(expected, at: index)) == 0, "\(vector.name) bit \(index)")
            }
            let other = message + [0]
            #expect(parley_ed448_verify(publicKey, other, other.count, expected) == 0, "\(vector.name): another message")
        }
    }

    @Test("OpenPGP's Ed448 uses the empty context: RFC 8032's context-\"foo\" signature is neither made nor accepted")
    func ed448Context() throws {
        for vector in Self.withContext {
            let key = try Curve448.Signing.PrivateKey(rawRepresentation: [UInt8](hex: vector.secret))
            let message = [UInt8](hex: vector.message), contextSignature = [UInt8](hex: vector.signature)
            #expect(try key.signature(for: message) != contextSignature)
            #expect(!key.publicKey.isValidSignature(contextSignature, for: message))
            // The same key and message with no context is RFC 8032's "1 octet" vector.
            let plain = try #require(Self.pure.first { $0.secret == vector.secret && $0.message == vector.message })
            #expect(try key.signature(for: message) == [UInt8](hex: plain.signature))
        }
    }

    @Test("Ed448 through Curve448.Signing: RFC 8032 vectors; wrong lengths and a wrong key refused")
    func ed448Type() throws {
        for vector in Self.pure {
            let key = try Curve448.Signing.PrivateKey(rawRepresentation: [UInt8](hex: vector.secret))
            let message = [UInt8](hex: vector.message), expected = [UInt8](hex: vector.signature)
            #expect(key.publicKey.rawRepresentation.hex == vector.public)
            #expect(key.rawRepresentation.hex == vector.secret)
            #expect(try key.signature(for: message) == expected)
            #expect(key.publicKey.isValidSignature(expected, for: message))
            #expect(!key.publicKey.isValidSignature(Self.flipped(expected, at: 3), for: message))
            #expect(!key.publicKey.isValidSignature(expected.dropLast(), for: message))
            #expect(!key.publicKey.isValidSignature(expected + [0], for: message))
        }
        let first = try Curve448.Signing.PrivateKey(rawRepresentation: [UInt8](hex: Self.pure[0].secret))
        let second = try Curve448.Signing.PublicKey(rawRepresentation: [UInt8](hex: Self.pure[1].public))
        #expect(!second.isValidSignature(try first.signature(for: [1, 2, 3]), for: [1, 2, 3]))
        for count in [0, 32, 56, 58, 114] {
            #expect(throws: Curve448.Failure.self) { try Curve448.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 7, count: count)) }
            #expect(throws: Curve448.Failure.self) { try Curve448.Signing.PublicKey(rawRepresentation: [UInt8](repeating: 7, count: count)) }
        }
        let fresh = try Curve448.Signing.PrivateKey()
        #expect(fresh.publicKey.isValidSignature(try fresh.signature(for: []), for: []))
    }

    @Test("X448 through the C wrapper: RFC 7748 multiplications, 1 and 1,000 iterations, and Alice and Bob")
    func x448C() throws {
        for vector in V.x448.multiplications {
            var out = [UInt8](repeating: 0, count: 56)
            #expect(parley_x448_shared_secret([UInt8](hex: vector.scalar), [UInt8](hex: vector.u), &out) == 1)
            #expect(out.hex == vector.result)
        }
        var k = [5] + [UInt8](repeating: 0, count: 55), u = k
        for iteration in 1...1000 {
            var next = [UInt8](repeating: 0, count: 56)
            #expect(parley_x448_shared_secret(k, u, &next) == 1)
            (k, u) = (next, k)
            if let expected = V.x448.iterated.first(where: { $0.iterations == iteration }) { #expect(k.hex == expected.result) }
        }
        let dh = V.x448.diffieHellman
        var alicePublic = [UInt8](repeating: 0, count: 56), bobPublic = alicePublic, shared1 = alicePublic, shared2 = alicePublic
        #expect(parley_x448_public_key([UInt8](hex: dh.alice_private), &alicePublic) == 1 && alicePublic.hex == dh.alice_public)
        #expect(parley_x448_public_key([UInt8](hex: dh.bob_private), &bobPublic) == 1 && bobPublic.hex == dh.bob_public)
        #expect(parley_x448_shared_secret([UInt8](hex: dh.alice_private), bobPublic, &shared1) == 1 && shared1.hex == dh.shared)
        #expect(parley_x448_shared_secret([UInt8](hex: dh.bob_private), alicePublic, &shared2) == 1 && shared2.hex == dh.shared)
    }

    @Test("X448 through Curve448.KeyAgreement: RFC 7748 Alice and Bob; low-order peers, wrong lengths and a wrong key refused")
    func x448Type() throws {
        let dh = V.x448.diffieHellman
        let alice = try Curve448.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: dh.alice_private))
        let bob = try Curve448.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: dh.bob_private))
        #expect(alice.publicKey.rawRepresentation.hex == dh.alice_public && bob.publicKey.rawRepresentation.hex == dh.bob_public)
        #expect(try alice.sharedSecret(with: bob.publicKey).bytes.hex == dh.shared)
        #expect(try bob.sharedSecret(with: alice.publicKey).bytes.hex == dh.shared)
        let stranger = try Curve448.KeyAgreement.PrivateKey()
        #expect(try stranger.sharedSecret(with: bob.publicKey).bytes.hex != dh.shared)
        // u = 0 and u = 1 have small order: the result would be all zeros (RFC 7748 §6.2).
        for u in [[UInt8](repeating: 0, count: 56), [1] + [UInt8](repeating: 0, count: 55)] {
            #expect(throws: Curve448.Failure.self) { try alice.sharedSecret(with: Curve448.KeyAgreement.PublicKey(rawRepresentation: u)) }
        }
        for count in [0, 32, 55, 57] {
            #expect(throws: Curve448.Failure.self) { try Curve448.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 7, count: count)) }
            #expect(throws: Curve448.Failure.self) { try Curve448.KeyAgreement.PublicKey(rawRepresentation: [UInt8](repeating: 7, count: count)) }
        }
        #expect("\(Curve448.Failure.wrongKeyLength("X448 public key", expected: 56))" == "an X448 public key must be 56 bytes")
    }
}
