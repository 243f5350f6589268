import Foundation
import ParleyTestSupport
import Testing
@testable import ParleyPGP

/// Peer → Parley with rnp (RNP, the OpenPGP library Thunderbird uses): keys protected by a pass phrase
/// are imported into rnp, whose messages and signatures Parley decrypts and verifies, whole and streamed.
@Suite(.serialized) struct RNPInteropTests {
    static let message = Array("rnp to Parley\n".utf8) + (0..<150_000).map { UInt8(truncatingIfNeeded: $0 >> 3) }

    @Test func rnpMessagesDecryptAndVerify() async throws {
        try await Blocking.run {
            let scratch = try PeerScratch()
            let home = scratch.directory.appendingPathComponent("rnp").path
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let input = try scratch.file("input.bin", Self.message)
            let password = String(decoding: PeerKeys.passphrase, as: UTF8.self)
            for (name, key) in try PeerKeys.make(protected: true) {
                let keyFile = try scratch.file("\(name).key", Array(key.armored.utf8))
                try scratch.run(["rnpkeys", "--homedir", home, "--import", keyFile])
                let fpr = key.fingerprint.upperHex
                let decryptor = PeerKeys.decryptor(key)
                // rnp compresses by default (ZIP/ZLIB); -z 0 stores; armored and binary.
                for options in [["-z", "0"], ["--zlib"], ["--zip"], ["--armor"]] {
                    let out = "\(name)-\(options.joined()).out"
                    try scratch.run(["rnp", "--homedir", home, "-e", "-r", fpr, "--overwrite"] + options + [input, "--output", scratch.directory.appendingPathComponent(out).path])
                    let encrypted = try scratch.read(out)
                    #expect(try PeerKeys.bothWays(encrypted, decryptor).0 == Self.message, "\(name) \(options)")

                    let signedOut = "signed-" + out
                    try scratch.run(["rnp", "--homedir", home, "-e", "-s", "-r", fpr, "-u", fpr, "--password", password, "--overwrite"]
                                    + options + [input, "--output", scratch.directory.appendingPathComponent(signedOut).path])
                    let (plain, verifications) = try PeerKeys.bothWays(scratch.read(signedOut), decryptor)
                    #expect(plain == Self.message)
                    #expect(verifications.map(\.isGood) == [true], "\(name) \(options) signed")
                }
                for options in [[], ["--armor"]] {
                    let out = "\(name)\(options.joined()).sig"
                    try scratch.run(["rnp", "--homedir", home, "--sign", "--detach", "-u", fpr, "--password", password, "--overwrite"]
                                    + options + [input, "--output", scratch.directory.appendingPathComponent(out).path])
                    let signature = try scratch.read(out)
                    let certificates = [key.publicCertificate]
                    #expect(try Verification.detached(signature, data: Self.message, certificates: certificates, now: PeerKeys.later).map(\.isGood) == [true])
                    #expect(try Verification.detached(signature, input: PGPMemoryInput(Self.message), certificates: certificates, now: PeerKeys.later).map(\.isGood) == [true])
                }
                let binaryOut = "\(name).plain.gpg"
                try scratch.run(["rnp", "--homedir", home, "-e", "-r", fpr, "-z", "0", "--overwrite", input, "--output", scratch.directory.appendingPathComponent(binaryOut).path])
                let binary = try scratch.read(binaryOut)
                #expect(throws: PGPError.badMDC) { try decryptor.decrypt(PeerKeys.tampered(binary)) }
                #expect(throws: PGPError.badMDC) { try decryptor.decrypt(from: PGPMemoryInput(PeerKeys.tampered(binary)), to: PGPMemoryOutput()) }
                #expect(throws: PGPError.truncated) { try decryptor.decrypt(from: PGPMemoryInput(Array(binary.dropLast(3))), to: PGPMemoryOutput()) }
            }
        }
    }

    @Test func rnpPasswordMessages() async throws {
        try await Blocking.run {
            let scratch = try PeerScratch()
            let home = scratch.directory.appendingPathComponent("rnp").path
            let input = try scratch.file("input.bin", Self.message)
            var decryptor = Decryptor(now: PeerKeys.later)
            decryptor.passwords = [Array("rnp password 7".utf8)]
            for options in [[], ["--armor"]] {
                let out = "pw\(options.joined()).out"
                try scratch.run(["rnp", "--homedir", home, "-c", "--password", "rnp password 7", "--overwrite"] + options
                                + [input, "--output", scratch.directory.appendingPathComponent(out).path])
                #expect(try PeerKeys.bothWays(scratch.read(out), decryptor).0 == Self.message)
            }
        }
    }
}
