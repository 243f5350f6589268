import Foundation
import ParleyPGP

/// A scratch directory for driving an OpenPGP peer's command line (gosop, rnp) through `GPG.run`.
/// Tests that use it fail (never skip) when the peer is missing: scripts/test-tools.txt installs it.
final class PeerScratch {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Writes `bytes` to a file here and returns its path.
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// The bytes of a file here.
    func read(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Runs `arguments`; returns standard output, throws with standard error on a non-zero exit.
    @discardableResult
    func run(_ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        let (status, output, error) = try GPG.run(arguments, input: input, environment: [:])
        guard status == 0 else {
            throw GPG.Failure(description: "\(arguments.prefix(3).joined(separator: " ")) exited \(status): \(String(decoding: error, as: UTF8.self))")
        }
        return output
    }
}

extension PeerScratch {
    /// `gosop decrypt ARGUMENTS` of the message `make` writes.
    ///
    /// gosop 0.0~git20221115 cuts some valid messages: its `getEncryptedDataPacket` ends its packet loop with a
    /// `break` inside a `switch`, so it goes on parsing the encrypted packet's ciphertext as packets, and when random
    /// bytes there read as a key packet it starts the message at them ("gopenpgp: unable to read symmetric packet:
    /// EOF", or "…: tag byte does not have MSB set"); about 1 in 600 short binary messages here, whoever wrote them
    /// (docs/PERFORMANCE.md, "AES-CFB through libgcrypt"). A message it cut so is made again with fresh random bytes,
    /// at most twice; any other failure, or that one three times, is thrown.
    func gosopDecrypt(_ arguments: [String], of make: () throws -> [UInt8]) throws -> [UInt8] {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try run(["gosop", "decrypt"] + arguments, input: try make())
            } catch let failure as GPG.Failure where attempt < 3 && failure.description.contains("unable to read symmetric packet") {
                continue
            }
        }
    }
}

/// The keys the peer tests use: made by ParleyPGP, so both kinds the brief names are covered.
enum PeerKeys {
    static let passphrase = Array("peer test pass phrase".utf8)
    static var later: UInt32 { UInt32(Date().timeIntervalSince1970) + 3600 }

    /// Ed25519/Cv25519 and RSA-3072, unprotected (gosop cannot unlock keys) or protected.
    static func make(protected: Bool) throws -> [(name: String, key: Certificate)] {
        let now = UInt32(Date().timeIntervalSince1970) - 60
        let passphrase = protected ? passphrase : nil
        return [
            ("ed25519", try KeyGenerator.generate(userIDs: ["Eve Ed <eve@example.org>"], passphrase: passphrase, now: now)),
            ("rsa3072", try KeyGenerator.generateRSA(userIDs: ["Rob RSA <rob@example.org>"], bits: .bits3072, passphrase: passphrase, now: now)),
        ]
    }

    /// A decryptor holding `key` (unlocking with the test pass phrase) that verifies with it.
    static func decryptor(_ key: Certificate) -> Decryptor {
        var decryptor = Decryptor(now: later)
        decryptor.keys = [key]
        decryptor.keyPassphrases = [passphrase]
        decryptor.verifiers = [key.publicCertificate]
        return decryptor
    }

    /// Decrypts both ways (whole buffer and streamed) and checks they agree; returns the streamed result.
    static func bothWays(_ message: [UInt8], _ decryptor: Decryptor) throws -> ([UInt8], [Verification]) {
        let whole = try decryptor.decrypt(message)
        let output = PGPMemoryOutput()
        let streamed = try decryptor.decrypt(from: PGPMemoryInput(message), to: output)
        guard output.bytes == whole.literal.data, streamed.verifications.map(\.isGood) == whole.verifications.map(\.isGood) else {
            throw GPG.Failure(description: "streamed and in-memory decryption disagree")
        }
        return (output.bytes, streamed.verifications)
    }

    /// A binary message with one ciphertext byte flipped near the end (inside the encrypted data).
    static func tampered(_ message: [UInt8]) throws -> [UInt8] {
        var bytes = try Armor.unwrap(message)
        bytes[bytes.count - 30] ^= 0x20
        return bytes
    }
}
