import ParleyTestSupport
import Testing
@testable import ParleyPGP

/// Inputs the fuzzers found (Vectors/pgp-fuzz-regressions.json, docs/TESTING.md): each is refused quickly
/// with the error named, by the in-memory and the streaming decryptor alike.
@Suite struct PGPFuzzRegressionTests {
    struct File: Decodable {
        struct Message: Decodable { let name: String, hex: String, password: String, strict: Bool, error: String }
        let messages: [Message]
    }

    /// The error's case name, the vectors' spelling of what is expected.
    static func kind(_ error: any Error) -> String {
        switch error as? PGPError {
        case .unsupported: "unsupported"
        case .malformed: "malformed"
        case let other?: "\(other)"
        case nil: "\(error)"
        }
    }

    @Test func foundMessagesAreRefusedByBothReaders() throws {
        let file = try Vectors.load("pgp-fuzz-regressions", as: File.self)
        #expect(file.messages.count >= 3)
        for vector in file.messages {
            var decryptor = Decryptor(now: 1_795_564_800)
            decryptor.passwords = [Array(vector.password.utf8)]
            decryptor.strict = vector.strict
            // One max-count derivation (130 MB) is past this limit, so the test hashes nothing and stays fast.
            decryptor.passwordWorkLimit = 1 << 26
            let message = [UInt8](hex: vector.hex)
            do {
                _ = try decryptor.decrypt(message)
                Issue.record("in memory, read: \(vector.name)")
            } catch {
                #expect(Self.kind(error) == vector.error, "in memory: \(vector.name)")
            }
            let output = PGPMemoryOutput()
            do {
                _ = try decryptor.decrypt(from: PGPMemoryInput(message), to: output)
                Issue.record("streamed, read: \(vector.name)")
            } catch {
                #expect(Self.kind(error) == vector.error, "streamed: \(vector.name)")
            }
            // Decryption refuses before writing; a signed message read as a stream writes its content before the
            // packets after it are checked (documented on `decrypt(from:to:)`).
            if vector.strict { #expect(output.bytes.isEmpty, "\(vector.name)") }
        }
    }

    @Test func theDefaultLimitStillLetsAGnuPGPasswordMessageRead() throws {
        var decryptor = Decryptor(now: 1_795_564_800)
        decryptor.passwords = [Array("not it".utf8), Array("password only".utf8)]
        #expect(decryptor.passwordWorkLimit == 1 << 29)
        #expect(throws: Never.self) { try decryptor.decrypt(Fixtures.bytes("password.msg.gpg")) }
    }
}
