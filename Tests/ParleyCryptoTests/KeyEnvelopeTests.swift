import Foundation
@testable import ParleyCrypto
import Testing

@Suite("ECP1 key envelope")
struct KeyEnvelopeTests {
    struct File: Decodable {
        struct Valid: Decodable {
            let password: String, salt: String, iterations: UInt32, nonce: String, secret: String, envelope: String
        }
        struct Invalid: Decodable {
            let name: String, password: String, envelope: String, error: String
        }
        let valid: [Valid]
        let invalid: [Invalid]
    }

    static let file: File = try! Vectors.load("key-envelope-ecp1")

    @Test("seal reproduces the independent vectors byte for byte")
    func sealMatchesVectors() throws {
        for vector in Self.file.valid {
            let made = try KeyEnvelope.seal(
                [UInt8](hex: vector.secret), password: vector.password, salt: [UInt8](hex: vector.salt),
                iterations: vector.iterations, nonce: [UInt8](hex: vector.nonce))
            #expect(made.bytes.hex == vector.envelope)
        }
    }

    @Test("open returns the secret of every valid vector")
    func openValid() throws {
        for vector in Self.file.valid {
            let envelope = KeyEnvelope(bytes: [UInt8](hex: vector.envelope))
            #expect(try envelope.open(password: vector.password) == [UInt8](hex: vector.secret))
            #expect(envelope.iterations == vector.iterations)
        }
    }

    @Test("composed and decomposed spellings of a password are the same password")
    func nfcNormalisation() throws {
        let secret = Array("identity seed".utf8)
        let envelope = try KeyEnvelope.seal(secret, password: "caf\u{E9}", iterations: 210_000)
        #expect(try envelope.open(password: "cafe\u{301}") == secret)
    }

    @Test("every invalid vector fails with the documented error")
    func invalidVectors() {
        for vector in Self.file.invalid {
            let expected: KeyEnvelopeError = vector.error == "wrongPassword" ? .wrongPassword : .corruptEnvelope
            #expect(throws: expected, "\(vector.name)") {
                try KeyEnvelope(bytes: [UInt8](hex: vector.envelope)).open(password: vector.password)
            }
        }
    }

    @Test("truncation at every length is a corrupt envelope or a wrong password, never a crash")
    func truncation() throws {
        let vector = Self.file.valid[0]
        let bytes = [UInt8](hex: vector.envelope)
        for length in 0..<bytes.count {
            let error = #expect(throws: KeyEnvelopeError.self) {
                try KeyEnvelope(bytes: bytes.prefix(length)).open(password: vector.password)
            }
            // Below header + nonce + 1 byte + tag the structure itself is incomplete.
            if length < 53 { #expect(error == .corruptEnvelope) }
        }
    }

    @Test("a bit flipped in any byte is rejected")
    func bitFlips() throws {
        let vector = Self.file.valid[0]
        let bytes = [UInt8](hex: vector.envelope)
        for index in bytes.indices {
            var mutated = bytes
            mutated[index] ^= 1 << (index % 8)
            #expect(throws: KeyEnvelopeError.self) {
                try KeyEnvelope(bytes: mutated).open(password: vector.password)
            }
        }
    }

    @Test("garbage and oversize input are refused")
    func garbage() {
        let random = DeterministicRandomSource(seed: Array("garbage".utf8))
        for length in [1, 52, 53, 100, 4096] {
            #expect(throws: KeyEnvelopeError.self) {
                try KeyEnvelope(bytes: random.bytes(length)).open(password: "x")
            }
        }
        #expect(throws: KeyEnvelopeError.secretSizeOutOfRange) {
            try KeyEnvelope.seal([UInt8](repeating: 1, count: KeyEnvelope.maximumSecretLength + 1), password: "x")
        }
        #expect(throws: KeyEnvelopeError.secretSizeOutOfRange) { try KeyEnvelope.seal([UInt8](), password: "x") }
    }

    @Test("seal refuses weak or absurd iteration counts")
    func iterationBounds() {
        #expect(throws: KeyEnvelopeError.iterationsOutOfRange) {
            try KeyEnvelope.seal([1], password: "x", iterations: 1_000)
        }
        #expect(throws: KeyEnvelopeError.iterationsOutOfRange) {
            try KeyEnvelope.seal([1], password: "x", iterations: 10_000_001)
        }
    }

    @Test("default seal uses 600,000 iterations and fresh randomness each time")
    func defaults() throws {
        let a = try KeyEnvelope.seal([1, 2, 3], password: "pw")
        let b = try KeyEnvelope.seal([1, 2, 3], password: "pw")
        #expect(a.iterations == 600_000)
        #expect(a != b)
        #expect(a.bytes.count == 24 + 12 + 3 + 16)
    }

    @Test("re-wrapping under a new password keeps the secret and drops the old password")
    func rewrap() throws {
        let secret = DeterministicRandomSource(seed: [9]).bytes(32)
        let old = try KeyEnvelope.seal(secret, password: "old password", iterations: 210_000)
        let new = try old.rewrapped(from: "old password", to: "new password", iterations: 210_000)
        #expect(try new.open(password: "new password") == secret)
        #expect(throws: KeyEnvelopeError.wrongPassword) { try new.open(password: "old password") }
        #expect(throws: KeyEnvelopeError.wrongPassword) {
            try old.rewrapped(from: "not it", to: "new password", iterations: 210_000)
        }
    }

    @Test("error messages never contain the password")
    func errorsLeakNothing() {
        let errors: [KeyEnvelopeError] = [.wrongPassword, .corruptEnvelope, .iterationsOutOfRange, .secretSizeOutOfRange, .cryptoFailure]
        for error in errors {
            #expect(!error.description.contains("hunter2"))
            #expect(!error.description.isEmpty)
        }
    }
}
