import Foundation
import Testing
@testable import ParleyPGP

/// Live interop with GnuPG 2.2: fresh keys every run, both directions.
@Suite(.serialized) struct GPGInteropTests {
    static let message = Array("Interop line one.\nline two, ünïcödé\n".utf8) + (0..<3000).map { UInt8(truncatingIfNeeded: $0) }

    static let people = ["rita", "eddie", "nina"]
    /// "Now" for checks: an hour ahead, so signatures gpg makes during a slow run are never "from the future".
    static var later: UInt32 { UInt32(Date().timeIntervalSince1970) + 3600 }

    /// A gpg home with an RSA-3072 key (gpg's default), an Ed25519/Cv25519 key (future-default) and
    /// an ECDSA/ECDH NIST P-256 key.
    static func gpgWithKeys() async throws -> (GPG, [String: Certificate], [String: Certificate]) {
        let gpg = try GPG()
        try await gpg(["--quick-gen-key", "Rita RSA <rita@example.org>", "default", "default", "never"])
        try await gpg(["--quick-gen-key", "Eddie Ed <eddie@example.org>", "future-default", "default", "never"])
        try await gpg(["--quick-gen-key", "Nina NIST <nina@example.org>", "nistp256", "default", "never"])
        // With an explicit algorithm gpg makes only the primary; add the ECDH encryption subkey.
        try await gpg(["--quick-add-key", try await gpg.fingerprint("nina@example.org"), "nistp256", "encr", "never"])
        var secrets: [String: Certificate] = [:], publics: [String: Certificate] = [:]
        for who in people {
            let fpr = try await gpg.fingerprint("\(who)@example.org")
            let secret = try await Certificate.readAll(gpg(["--armor", "--export-secret-keys", fpr]))
            let certificate = try await Certificate.readAll(gpg(["--export", fpr]))
            #expect(secret.count == 1 && certificate.count == 1)
            secrets[who] = secret.first
            publics[who] = certificate.first
            #expect(publics[who]?.fingerprint.upperHex == fpr)
        }
        return (gpg, secrets, publics)
    }

    @Test func gpgToParley() async throws {
        let (gpg, secrets, publics) = try await Self.gpgWithKeys()
        let input = try gpg.file("input.bin", Self.message)
        for who in Self.people {
            let fpr = try await gpg.fingerprint("\(who)@example.org")
            var decryptor = Decryptor(now: Self.later)
            decryptor.strict = false   // gpg --sign output (signed, not encrypted) is read here too
            decryptor.keys = [try #require(secrets[who])]
            decryptor.keyPassphrases = [Array(GPG.passphrase.utf8)]
            decryptor.verifiers = [try #require(publics[who])]
            for options in [["--compress-algo", "zlib"], ["--compress-algo", "zip"], ["--compress-algo", "none"], ["--armor"]] {
                let encrypted = try await gpg(options + ["--encrypt", "-r", fpr, "-o", "-", input])
                #expect(try decryptor.decrypt(encrypted).literal.data == Self.message)
                let signed = try await gpg(options + ["--sign", "--encrypt", "-r", fpr, "-u", fpr, "-o", "-", input])
                let result = try decryptor.decrypt(signed)
                #expect(result.literal.data == Self.message)
                #expect(result.verifications.map(\.isGood) == [true])
            }
            // Streamed input: gpg cannot know the length, so it writes partial body lengths.
            let streamed = try await gpg(["--encrypt", "-r", fpr, "-o", "-"], input: Self.message)
            #expect(try decryptor.decrypt(streamed).literal.data == Self.message)
            let detached = try await gpg(["--detach-sign", "-u", fpr, "-o", "-", input])
            #expect(try Verification.detached(detached, data: Self.message, certificates: decryptor.verifiers, now: decryptor.now).map(\.isGood) == [true])
            let textSig = try await gpg(["--textmode", "--sign", "-u", fpr, "-o", "-", input])
            #expect(try decryptor.decrypt(textSig).verifications.map(\.isGood) == [true])
            for digest in ["SHA256", "SHA384", "SHA512"] {
                let signed = try await gpg(["--digest-algo", digest, "--sign", "-u", fpr, "-o", "-", input])
                let checks = try decryptor.decrypt(signed).verifications
                #expect(checks.map(\.isGood) == [true], "\(who) \(digest): \(checks.map { String(describing: $0.failure) })")
            }
        }
        // Several recipients: each of them can open the same message.
        var all: [String] = []
        for who in Self.people { all.append(try await gpg.fingerprint("\(who)@example.org")) }
        let toAll = try await gpg(all.flatMap { ["-r", $0] } + ["--encrypt", "-o", "-", input])
        for who in Self.people {
            var decryptor = Decryptor(now: Self.later)
            decryptor.strict = false   // gpg --sign output (signed, not encrypted) is read here too
            decryptor.keys = [try #require(secrets[who])]
            decryptor.keyPassphrases = [Array(GPG.passphrase.utf8)]
            #expect(try decryptor.decrypt(toAll).literal.data == Self.message)
        }
        // Password-only, AES-128/192/256 and the S2K hashes gpg offers.
        for (cipher, digest) in [("AES", "SHA1"), ("AES192", "SHA256"), ("AES256", "SHA512")] {
            let encrypted = try await gpg(["--symmetric", "--cipher-algo", cipher, "--s2k-digest-algo", digest, "-o", "-", input], passphrase: "pw pw pw")
            var decryptor = Decryptor(now: 0)
            decryptor.passwords = [Array("pw pw pw".utf8)]
            #expect(try decryptor.decrypt(encrypted).literal.data == Self.message)
        }
    }

    @Test func parleyToGpg() async throws {
        let (gpg, secrets, publics) = try await Self.gpgWithKeys()
        let now = UInt32(Date().timeIntervalSince1970)
        let both = try Self.people.map { try #require(publics[$0]) }
        for who in Self.people {
            let signer = try #require(secrets[who]).unlockedSigningKey(passphrases: [Array(GPG.passphrase.utf8)], now: now)
            var encryptor = Encryptor(now: now)
            encryptor.recipients = both
            encryptor.signers = [signer]
            for compress in [false, true] {
                encryptor.compress = compress
                let encrypted = try encryptor.encrypt(Self.message, filename: Array("m.bin".utf8))
                let statusFile = gpg.home.appendingPathComponent("status").path
                let decrypted = try await gpg(["--status-file", statusFile, "--decrypt"], input: encrypted)
                #expect(decrypted == Self.message)
                let status = try String(contentsOfFile: statusFile, encoding: .utf8)
                #expect(status.contains("GOODSIG"))
                #expect(status.contains("DECRYPTION_OKAY"))
            }
            let signature = try Signer.detached(Self.message, signers: [signer], now: now)
            let dataPath = try gpg.file("data.bin", Self.message)
            let sigPath = try gpg.file("data.sig", Array(Armor.encode(signature, as: .signature).utf8))
            try await gpg(["--verify", sigPath, dataPath])
        }
        var passwordOnly = Encryptor(now: now)
        passwordOnly.passwords = [Array("a long shared password".utf8)]
        #expect(try await gpg(["--decrypt"], input: passwordOnly.encrypt(Self.message), passphrase: "a long shared password") == Self.message)
    }

    @Test func gpgImportsParleyKeysAndEncryptsToThem() async throws {
        let gpg = try GPG()
        let now = UInt32(Date().timeIntervalSince1970) - 60
        let key = try KeyGenerator.generate(userIDs: ["Parley User <parley@example.org>"], passphrase: Array("twelve chars or more".utf8), now: now)
        try await gpg(["--import"], input: Array(key.publicCertificate.armored.utf8))
        try await gpg(["--import"], input: Array(key.armored.utf8), passphrase: "twelve chars or more")
        #expect(try await gpg.fingerprint("parley@example.org") == key.fingerprint.upperHex)
        let encrypted = try await gpg(["--encrypt", "-r", "parley@example.org", "-o", "-"], input: Self.message)
        var decryptor = Decryptor(now: Self.later)
        decryptor.strict = false   // gpg --sign output (signed, not encrypted) is read here too
        decryptor.keys = [key]
        decryptor.keyPassphrases = [Array("twelve chars or more".utf8)]
        #expect(try decryptor.decrypt(encrypted).literal.data == Self.message)
        // gpg can use the secret key Parley made: it signs with it, and Parley verifies.
        let signed = try await gpg(["--sign", "-u", "parley@example.org", "-o", "-"], input: Self.message, passphrase: "twelve chars or more")
        decryptor.verifiers = [key.publicCertificate]
        #expect(try decryptor.decrypt(signed).verifications.map(\.isGood) == [true])
    }

    @Test func gpgUsesParleyRSAKeysBothWays() async throws {
        let gpg = try GPG()
        let now = UInt32(Date().timeIntervalSince1970) - 60
        let pass = "rsa pass phrase, long enough"
        let key = try KeyGenerator.generateRSA(userIDs: ["Parley RSA <rsa@example.org>"], bits: .bits2048, passphrase: Array(pass.utf8), now: now)
        try await gpg(["--import"], input: Array(key.armored.utf8), passphrase: pass)
        #expect(try await gpg.fingerprint("rsa@example.org") == key.fingerprint.upperHex)
        // gpg decrypts and signs with Parley's secret key (its CRT coefficient u must be right).
        var encryptor = Encryptor(now: now)
        encryptor.recipients = [key.publicCertificate]
        #expect(try await gpg(["--decrypt"], input: encryptor.encrypt(Self.message), passphrase: pass) == Self.message)
        let signed = try await gpg(["--sign", "-u", "rsa@example.org", "-o", "-"], input: Self.message, passphrase: pass)
        var decryptor = Decryptor(now: Self.later)
        decryptor.strict = false   // gpg --sign output (signed, not encrypted) is read here too
        decryptor.verifiers = [key.publicCertificate]
        #expect(try decryptor.decrypt(signed).verifications.map(\.isGood) == [true])
        // And the other way: gpg encrypts to it, Parley decrypts with the locked key.
        decryptor.keys = [key]
        decryptor.keyPassphrases = [Array(pass.utf8)]
        #expect(try await decryptor.decrypt(gpg(["--encrypt", "-r", "rsa@example.org", "-o", "-"], input: Self.message)).literal.data == Self.message)
    }

    @Test func gpgTamperedTruncatedAndUnprotectedMessagesAreRejected() async throws {
        let (gpg, secrets, _) = try await Self.gpgWithKeys()
        let fpr = try await gpg.fingerprint("eddie@example.org")
        var decryptor = Decryptor(now: Self.later)
        decryptor.strict = false   // gpg --sign output (signed, not encrypted) is read here too
        decryptor.keys = [try #require(secrets["eddie"])]
        decryptor.keyPassphrases = [Array(GPG.passphrase.utf8)]
        let encrypted = try await gpg(["--compress-algo", "none", "--encrypt", "-r", fpr, "-o", "-"], input: Self.message)
        var tampered = encrypted
        tampered[tampered.count - 100] ^= 0x80
        #expect(throws: PGPError.badMDC) { try decryptor.decrypt(tampered) }
        #expect(throws: PGPError.truncated) { try decryptor.decrypt(Array(encrypted.dropLast(7))) }
        // gpg still writes MDC-less data for RFC 2440 mode with a legacy cipher; Parley refuses both.
        let legacy = try await gpg(["--rfc2440", "--symmetric", "--cipher-algo", "AES", "-o", "-"], input: Self.message, passphrase: "pw")
        var withPassword = Decryptor(now: 0)
        withPassword.passwords = [Array("pw".utf8)]
        #expect(throws: PGPError.missingMDC) { try withPassword.decrypt(legacy) }
    }
}
