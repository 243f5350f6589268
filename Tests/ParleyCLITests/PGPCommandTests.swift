import Foundation
import ParleyTestSupport
import Testing

/// `parley pgp` run as a user would: the built binary, a keyring directory, pass phrases from files
/// or the environment, and a round trip with the real GnuPG in both directions.
@Suite("parley pgp", .serialized, .offThePool)
struct PGPCommandTests {
    /// Holds the keyring, pass phrase file and gpg home; stops gpg's agent and removes it all afterwards.
    let scratch: GnuPGScratch
    var directory: URL { scratch.url }
    let passphrase = "parley pgp test pass phrase"

    init() throws {
        scratch = try GnuPGScratch("parley-pgp")
        try Data((passphrase + "\n").utf8).write(to: URL(fileURLWithPath: path("pass")))
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }
    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    /// Runs `parley pgp … --keyring DIR/keyring` on a thread of its own.
    func pgp(_ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:]) async throws -> ParleyBinary.BinaryResult {
        let keyring = path("keyring")
        return try await Blocking.run {
            let result = try ParleyBinary.runBinary(["pgp"] + arguments + ["--keyring", keyring], stdin: stdin, environment: environment)
            return SendableResult(result)
        }.result
    }

    /// Runs gpg in a throwaway home with the test pass phrase.
    func gpg(_ arguments: [String]) async throws -> (Int32, Data) {
        let home = path("gnupg")
        let passphrase = passphrase
        return try await Blocking.run {
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/gpg")
            process.arguments = ["--homedir", home, "--batch", "--yes", "--no-tty", "--pinentry-mode", "loopback",
                                 "--passphrase", passphrase, "--trust-model", "always"] + arguments
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try ProcessLaunch.start(process)
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, data)
        }
    }

    func generate(_ userID: String) async throws -> String {
        let result = try await pgp(["keys", "generate", "--user-id", userID, "--passphrase-file", path("pass")])
        #expect(result.status == 0, "\(result.stderr)")
        let text = String(decoding: result.stdout, as: UTF8.self)
        return try #require(text.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.count == 40 })
    }

    @Test func generateListExportAndKeyringFiles() async throws {
        let fingerprint = try await generate("Ada <ada@example.org>")
        let list = try await pgp(["keys", "list"])
        let listing = String(decoding: list.stdout, as: UTF8.self)
        #expect(listing.contains("sec  \(fingerprint)  ed25519"))
        #expect(listing.contains("Ada <ada@example.org>"))
        let exported = try await pgp(["keys", "export", "ada@"])
        #expect(String(decoding: exported.stdout, as: UTF8.self).hasPrefix("-----BEGIN PGP PUBLIC KEY BLOCK-----"))
        let secret = try await pgp(["keys", "export", fingerprint, "--secret"])
        #expect(String(decoding: secret.stdout, as: UTF8.self).hasPrefix("-----BEGIN PGP PRIVATE KEY BLOCK-----"))
        // Every keyring file is owner-only, and the pass phrase is nowhere on disk.
        let keyring = path("keyring")
        for sub in ["public", "secret"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: "\(keyring)/\(sub)") {
                let file = "\(keyring)/\(sub)/\(name)"
                #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
                #expect(!String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self).contains(passphrase))
            }
        }
        // A short pass phrase and a missing one are refused with advice.
        try Data("short\n".utf8).write(to: URL(fileURLWithPath: path("short")))
        let short = try await pgp(["keys", "generate", "--user-id", "B <b@example.org>", "--passphrase-file", path("short")])
        #expect(short.status != 0 && short.stderr.contains("shorter than 12 characters"))
        let none = try await pgp(["keys", "generate", "--user-id", "B <b@example.org>"])
        #expect(none.status != 0 && none.stderr.contains("--passphrase-file"))
    }

    @Test("decrypt reads exactly one encrypted message: a bare literal packet, stray bytes or a second copy are refused, nothing written")
    func strictDecryption() async throws {
        _ = try await generate("Ada <ada@example.org>")
        try Data("the content\n".utf8).write(to: URL(fileURLWithPath: path("plain.txt")))
        #expect(try await pgp(["encrypt", "-r", "ada", "-o", path("msg.gpg"), path("plain.txt")]).status == 0)
        let message = try read("msg.gpg")
        // A literal data packet that was never encrypted (new format, tag 11).
        let body = Data([0x62, 0x00, 0, 0, 0, 0]) + Data("never encrypted\n".utf8)
        let cases: [(String, Data, String)] = [
            ("literal.gpg", Data([0xCB, UInt8(body.count)]) + body, "not encrypted"),
            ("junk.gpg", message + Data((0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }), "follows the end of the OpenPGP message"),
            ("twice.gpg", message + message, "follows the end of the OpenPGP message"),
        ]
        for (name, bytes, words) in cases {
            try bytes.write(to: URL(fileURLWithPath: path(name)))
            let out = "\(name).out"
            let result = try await pgp(["decrypt", "-o", path(out), "--passphrase-file", path("pass"), path(name)])
            #expect(result.status != 0, "\(name) was accepted")
            #expect(result.stderr.contains(words), "\(name): \(result.stderr)")
            #expect(!exists(out), "\(name): something was written")
            let piped = try await pgp(["decrypt", "-o", "-", "--passphrase-file", path("pass"), path(name)])
            #expect(piped.status != 0 && piped.stdout.isEmpty, "\(name) on standard output")
        }
    }

    @Test func encryptDecryptSignedRoundTripAndRefusals() async throws {
        _ = try await generate("Ada <ada@example.org>")
        let content = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 13) })
        try content.write(to: URL(fileURLWithPath: path("plain.bin")))
        let encrypted = try await pgp(["encrypt", "-r", "ada@example.org", "--sign-with", "ada", "--passphrase-file", path("pass"),
                                       "--armor", "-o", path("msg.asc"), path("plain.bin")])
        #expect(encrypted.status == 0, "\(encrypted.stderr)")
        let decrypted = try await pgp(["decrypt", "-o", path("out.bin"), path("msg.asc")], environment: ["PARLEY_PGP_PASSPHRASE": passphrase])
        #expect(decrypted.status == 0, "\(decrypted.stderr)")
        #expect(try read("out.bin") == content)
        #expect(decrypted.stderr.contains("Good signature from Ada <ada@example.org>"))
        // Standard output works too, and an existing file is not replaced without --force.
        let toStdout = try await pgp(["decrypt", "-o", "-", "--passphrase-file", path("pass"), path("msg.asc")])
        #expect(toStdout.stdout == content)
        let again = try await pgp(["decrypt", "-o", path("out.bin"), "--passphrase-file", path("pass"), path("msg.asc")])
        #expect(again.status != 0 && again.stderr.contains("already exists"))

        // Wrong pass phrase: a clear error and no output file.
        try Data("not the pass phrase at all\n".utf8).write(to: URL(fileURLWithPath: path("wrong")))
        let wrong = try await pgp(["decrypt", "-o", path("wrong.bin"), "--passphrase-file", path("wrong"), path("msg.asc")])
        #expect(wrong.status != 0 && wrong.stderr.contains("wrong pass phrase"))
        #expect(!exists("wrong.bin"))

        // A binary message altered near its end: refused, nothing written (not even a temporary file).
        _ = try await pgp(["encrypt", "-r", "ada", "-o", path("msg.gpg"), path("plain.bin")])
        var altered = try read("msg.gpg")
        altered[altered.count - 100] ^= 0x01
        try altered.write(to: URL(fileURLWithPath: path("altered.gpg")))
        let refused = try await pgp(["decrypt", "-o", path("altered.bin"), "--passphrase-file", path("pass"), path("altered.gpg")])
        #expect(refused.status != 0 && refused.stderr.contains("nothing was written"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.hasPrefix("altered.bin") && !$0.hasPrefix(".altered.bin") })
        let toPipe = try await pgp(["decrypt", "-o", "-", "--passphrase-file", path("pass"), path("altered.gpg")])
        #expect(toPipe.status != 0 && toPipe.stdout.isEmpty)

        // A file that is no OpenPGP message is said to be one before any pass phrase is asked for.
        let notPGP = try await pgp(["decrypt", "-o", path("text.out"), path("plain.bin")])
        #expect(notPGP.status != 0 && notPGP.stderr.contains("is not an OpenPGP message") && !notPGP.stderr.contains("pass phrase"), "\(notPGP.stderr)")
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: path("hello.txt")))
        #expect(try await pgp(["decrypt", "-o", path("text.out"), path("hello.txt")]).stderr.contains("is not an OpenPGP message"))
        #expect(!exists("text.out"))

        // No recipient, unknown recipient.
        let noRecipient = try await pgp(["encrypt", "-o", path("x.gpg"), path("plain.bin")])
        #expect(noRecipient.status != 0 && noRecipient.stderr.contains("give a recipient"))
        let unknown = try await pgp(["encrypt", "-r", "nobody@example.org", "-o", path("x.gpg"), path("plain.bin")])
        #expect(unknown.status != 0 && unknown.stderr.contains("parley pgp keys list"))
    }

    @Test func passwordSignVerifyAndPassphraseChange() async throws {
        let fingerprint = try await generate("Ada <ada@example.org>")
        try Data("some text\nto sign\n".utf8).write(to: URL(fileURLWithPath: path("doc.txt")))
        let env = ["PARLEY_PGP_PASSWORD": "a message password"]
        #expect(try await pgp(["encrypt", "--password", "-o", path("pw.gpg"), path("doc.txt")], environment: env).status == 0)
        #expect(try await pgp(["decrypt", "--password", "-o", path("pw.txt"), path("pw.gpg")], environment: env).status == 0)
        #expect(try read("pw.txt") == read("doc.txt"))
        let badPassword = try await pgp(["decrypt", "--password", "-o", path("pw2.txt"), path("pw.gpg")], environment: ["PARLEY_PGP_PASSWORD": "nope"])
        #expect(badPassword.status != 0 && badPassword.stderr.contains("--password"))

        let signed = try await pgp(["sign", "-k", fingerprint, "--passphrase-file", path("pass"), path("doc.txt")])
        #expect(signed.status == 0 && exists("doc.txt.asc"), "\(signed.stderr)")
        let verified = try await pgp(["verify", path("doc.txt.asc"), path("doc.txt")])
        #expect(verified.status == 0 && verified.stderr.contains("Good signature"))
        try Data("some text\nto sign!\n".utf8).write(to: URL(fileURLWithPath: path("doc.txt")))
        let bad = try await pgp(["verify", path("doc.txt.asc"), path("doc.txt")])
        #expect(bad.status == 1 && bad.stderr.contains("BAD"))

        try Data("a brand new pass phrase\n".utf8).write(to: URL(fileURLWithPath: path("new")))
        let changed = try await pgp(["keys", "passphrase", fingerprint, "--passphrase-file", path("pass"), "--new-passphrase-file", path("new")])
        #expect(changed.status == 0, "\(changed.stderr)")
        let old = try await pgp(["sign", "-k", fingerprint, "--passphrase-file", path("pass"), "-o", path("s1.asc"), path("doc.txt")])
        #expect(old.status != 0 && old.stderr.contains("wrong pass phrase"))
        #expect(try await pgp(["sign", "-k", fingerprint, "--passphrase-file", path("new"), "-o", path("s2.asc"), path("doc.txt")]).status == 0)
    }

    @Test func gnupgRoundTripBothWays() async throws {
        let content = Data("GnuPG and Parley\n".utf8 + (0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
        try content.write(to: URL(fileURLWithPath: path("plain.bin")))
        // gpg's key (protected, as gpg exports it) goes into Parley's keyring.
        #expect(try await gpg(["--quick-gen-key", "Gus <gus@example.org>", "future-default", "default", "never"]).0 == 0)
        let (_, gusSecret) = try await gpg(["--armor", "--export-secret-keys", "gus@example.org"])
        try gusSecret.write(to: URL(fileURLWithPath: path("gus.sec.asc")))
        let imported = try await pgp(["keys", "import", path("gus.sec.asc")])
        #expect(imported.status == 0 && String(decoding: imported.stdout, as: UTF8.self).contains("Imported secret key"), "\(imported.stderr)")
        // gpg → Parley: encrypted and signed, streamed by gpg (partial lengths from a pipe-less file still).
        #expect(try await gpg(["--sign", "--encrypt", "-r", "gus@example.org", "-u", "gus@example.org", "-o", path("from-gpg.gpg"), path("plain.bin")]).0 == 0)
        let decrypted = try await pgp(["decrypt", "-o", path("from-gpg.bin"), "--passphrase-file", path("pass"), path("from-gpg.gpg")])
        #expect(decrypted.status == 0, "\(decrypted.stderr)")
        #expect(try read("from-gpg.bin") == content)
        #expect(decrypted.stderr.contains("Good signature from Gus <gus@example.org>"))

        // Parley → gpg: Parley's own key signs, gpg's certificate receives; gpg decrypts and checks the signature.
        let ada = try await generate("Ada <ada@example.org>")
        let exported = try await pgp(["keys", "export", ada, "-o", path("ada.pub.asc")])
        #expect(exported.status == 0)
        #expect(try await gpg(["--import", path("ada.pub.asc")]).0 == 0)
        let encrypted = try await pgp(["encrypt", "-r", "gus@example.org", "--sign-with", ada, "--passphrase-file", path("pass"),
                                       "--compress", "-o", path("to-gpg.gpg"), path("plain.bin")])
        #expect(encrypted.status == 0, "\(encrypted.stderr)")
        let (status, plain) = try await gpg(["--decrypt", path("to-gpg.gpg")])
        #expect(status == 0)
        #expect(plain == content)
        let signature = try await pgp(["sign", "-k", ada, "--passphrase-file", path("pass"), "-o", path("plain.sig"), path("plain.bin")])
        #expect(signature.status == 0)
        #expect(try await gpg(["--verify", path("plain.sig"), path("plain.bin")]).0 == 0)
    }

    @Test func readMailShowsDecryptedTextHTMLAsTextAndSavesTheDecryptedAttachment() async throws {
        _ = try await generate("Ada <ada@example.org>")
        // The body and the attachment are encrypted by parley pgp itself (armored) to ada's key.
        try Data("Meet at the north gate at nine.\n".utf8).write(to: URL(fileURLWithPath: path("body.txt")))
        try Data("secret plan, attached".utf8).write(to: URL(fileURLWithPath: path("plan.txt")))
        #expect(try await pgp(["encrypt", "-r", "ada", "--armor", "-o", path("body.asc"), path("body.txt")]).status == 0)
        #expect(try await pgp(["encrypt", "-r", "ada", "-o", path("plan.txt.pgp"), path("plan.txt")]).status == 0)
        let armored = String(decoding: try read("body.asc"), as: UTF8.self)
        let attachment = try read("plan.txt.pgp").base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        let eml = """
            From: Bob <bob@example.org>\r
            To: Ada <ada@example.org>\r
            Subject: =?utf-8?q?Plan_f=C3=BCr_heute?=\r
            MIME-Version: 1.0\r
            Content-Type: multipart/mixed; boundary="outer"\r
            \r
            --outer\r
            Content-Type: text/plain; charset=utf-8\r
            \r
            Before the block.\r
            \(armored.replacingOccurrences(of: "\n", with: "\r\n"))\r
            --outer\r
            Content-Type: text/html; charset=utf-8\r
            Content-Disposition: inline\r
            \r
            <p>Hi <b>Ada</b>, see <a href="https://example.org/map">the map</a><script>alert(1)</script></p>\r
            --outer\r
            Content-Type: application/octet-stream; name="plan.txt.pgp"\r
            Content-Disposition: attachment; filename="../../plan.txt.pgp"\r
            Content-Transfer-Encoding: base64\r
            \r
            \(attachment)\r
            --outer--\r

            """
        try Data(eml.utf8).write(to: URL(fileURLWithPath: path("mail.eml")))
        let shown = try await pgp(["read-mail", "--passphrase-file", path("pass"), "--out", path("saved"), path("mail.eml")])
        let text = String(decoding: shown.stdout, as: UTF8.self)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(text.contains("Subject: Plan für heute"), "\(text)")
        #expect(text.contains("── decrypted") && text.contains("Meet at the north gate at nine."))
        #expect(text.contains("Before the block."))
        #expect(text.contains("the map <https://example.org/map>") && !text.contains("alert(1)"))
        #expect(text.contains("[attachment] plan.txt") && text.contains("decrypted"))
        // Saved under its bare name inside --out, never where "../../" would put it.
        #expect(String(decoding: try read("saved/plan.txt"), as: UTF8.self) == "secret plan, attached")
        #expect(!FileManager.default.fileExists(atPath: directory.deletingLastPathComponent().appendingPathComponent("plan.txt").path))

        // A wrong pass phrase is a block error, said plainly; garbage is refused with a clear message.
        try Data("not the pass phrase\n".utf8).write(to: URL(fileURLWithPath: path("wrong")))
        let wrong = try await pgp(["read-mail", "--passphrase-file", path("wrong"), path("mail.eml")])
        #expect(String(decoding: wrong.stdout, as: UTF8.self).contains("could not read a part"), "\(wrong.stderr)")
        try Data([0xFF, 0x00, 0x13, 0x37]).write(to: URL(fileURLWithPath: path("garbage.eml")))
        let garbage = try await pgp(["read-mail", path("garbage.eml")])
        #expect(garbage.status != 0 && garbage.stderr.contains("cannot read"), "\(garbage.stderr)")
    }
}

/// Carries a run's result out of `Blocking.run` (Process results are plain values).
private struct SendableResult: @unchecked Sendable {
    let result: ParleyBinary.BinaryResult
    init(_ result: ParleyBinary.BinaryResult) { self.result = result }
}
