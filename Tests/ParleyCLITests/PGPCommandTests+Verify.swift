import Foundation
import Testing

/// `parley pgp verify SIGNED` with one file: inline-signed messages (binary and armored, as `gpg --sign`
/// makes them) and cleartext-signed texts, from gpg and from Parley; -o releases the content only
/// when a signature is good.
extension PGPCommandTests {
    func write(_ name: String, _ data: Data) throws { try data.write(to: URL(fileURLWithPath: path(name))) }

    @Test func verifyInlineAndCleartextSignedMessagesFromGnuPG() async throws {
        let content = Data("signed inline by gpg\n".utf8 + (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try write("content.bin", content)
        try write("note.txt", Data("A note, clear-signed.\n- a dashed line\n".utf8))
        #expect(try await gpg(["--quick-gen-key", "Gus <gus@example.org>", "future-default", "default", "never"]).0 == 0)
        try write("gus.pub.asc", try await gpg(["--armor", "--export", "gus@example.org"]).1)
        #expect(try await gpg(["--sign", "-u", "gus@example.org", "-o", path("gus.gpg"), path("content.bin")]).0 == 0)
        #expect(try await gpg(["--sign", "--armor", "-u", "gus@example.org", "-o", path("gus.asc"), path("content.bin")]).0 == 0)
        #expect(try await gpg(["--clearsign", "-u", "gus@example.org", "-o", path("note.txt.asc"), path("note.txt")]).0 == 0)

        for name in ["gus.gpg", "gus.asc"] {
            let verified = try await pgp(["verify", "--cert", path("gus.pub.asc"), "-o", path("\(name).out"), path(name)])
            #expect(verified.status == 0, "\(name): \(verified.stderr)")
            #expect(verified.stderr.contains("Good signature from Gus <gus@example.org>"), "\(name)")
            #expect(try read("\(name).out") == content, "\(name)")
        }
        let toStdout = try await pgp(["verify", "--cert", path("gus.pub.asc"), "-o", "-", path("gus.asc")])
        #expect(toStdout.status == 0 && toStdout.stdout == content)
        // Without -o only the verdict: nothing on standard output.
        let verdictOnly = try await pgp(["verify", "--cert", path("gus.pub.asc"), path("gus.gpg")])
        #expect(verdictOnly.status == 0 && verdictOnly.stdout.isEmpty)
        let clear = try await pgp(["verify", "--cert", path("gus.pub.asc"), "-o", "-", path("note.txt.asc")])
        #expect(clear.status == 0 && clear.stderr.contains("Good signature from Gus"), "\(clear.stderr)")
        #expect(clear.stdout == Data("A note, clear-signed.\n- a dashed line\n".utf8))

        // Not knowing the signer is not good enough: exit 1, and -o writes nothing.
        let unknown = try await pgp(["verify", "-o", path("unknown.out"), path("gus.gpg")])
        #expect(unknown.status == 1 && unknown.stderr.contains("BAD or unverifiable signature"), "\(unknown.stderr)")
        #expect(!exists("unknown.out"))
        // The signer's certificate in the keyring serves as well as --cert.
        #expect(try await pgp(["keys", "import", path("gus.pub.asc")]).status == 0)
        #expect(try await pgp(["verify", path("gus.asc")]).status == 0)

        // A flipped byte in the literal data (uncompressed, so the content is there as it was signed).
        #expect(try await gpg(["--sign", "--compress-algo", "none", "-u", "gus@example.org", "-o", path("gus.stored.gpg"), path("content.bin")]).0 == 0)
        try await expectBadSignature(altering: "gus.stored.gpg", content: content)
    }

    @Test func verifyInlineSignedMessagesFromParleyAndRefuseBadInput() async throws {
        let ada = try await generate("Ada <ada@example.org>")
        #expect(try await pgp(["keys", "export", ada, "--secret", "-o", path("ada.sec.asc")]).status == 0)
        let text = Data("Parley signs this inline.\n- dashed\nlast line\n".utf8)
        for mode in ["binary", "text", "clearsigned"] {
            let signed = try ParleyBinary.runBinary(["sop", "inline-sign", "--as", mode, "--with-key-password", path("pass"), path("ada.sec.asc")], stdin: text)
            #expect(signed.status == 0, "\(mode): \(signed.stderr)")
            try write("ada.\(mode).asc", signed.stdout)
            let verified = try await pgp(["verify", "-o", "-", path("ada.\(mode).asc")])
            #expect(verified.status == 0 && verified.stderr.contains("Good signature from Ada <ada@example.org>"), "\(mode): \(verified.stderr)")
            #expect(verified.stdout == text, "\(mode)")
        }
        // gpg agrees about Parley's inline signature.
        #expect(try await pgp(["keys", "export", ada, "-o", path("ada.pub.asc")]).status == 0)
        #expect(try await gpg(["--import", path("ada.pub.asc")]).0 == 0)
        #expect(try await gpg(["--verify", path("ada.binary.asc")]).0 == 0)

        let content = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try write("content.bin", content)
        let binary = try ParleyBinary.runBinary(["sop", "inline-sign", "--no-armor", "--with-key-password", path("pass"), path("ada.sec.asc")], stdin: content)
        try write("ada.gpg", binary.stdout)
        #expect(try await pgp(["verify", path("ada.gpg")]).status == 0)
        try await expectBadSignature(altering: "ada.gpg", content: content)

        // Garbage, a cut message, an encrypted one and -o with a detached signature: clear errors, no output.
        try write("garbage.bin", Data([0x13, 0x37, 0xFF, 0x00, 0x42]))
        let garbage = try await pgp(["verify", "-o", path("garbage.out"), path("garbage.bin")])
        #expect(garbage.status != 0 && garbage.stderr.contains("OpenPGP"), "\(garbage.stderr)")
        try write("cut.gpg", try read("ada.gpg").prefix(5000))
        let cut = try await pgp(["verify", "-o", path("cut.out"), path("cut.gpg")])
        #expect(cut.status != 0 && cut.stderr.contains("cut short"), "\(cut.stderr)")
        #expect(!exists("garbage.out") && !exists("cut.out"))
        #expect(try await pgp(["encrypt", "-r", ada, "--sign-with", ada, "--passphrase-file", path("pass"), "-o", path("enc.gpg"), path("content.bin")]).status == 0)
        let encrypted = try await pgp(["verify", path("enc.gpg")])
        #expect(encrypted.status != 0 && encrypted.stderr.contains("parley pgp decrypt"), "\(encrypted.stderr)")
        let detachedWithOutput = try await pgp(["verify", "-o", path("x.out"), path("ada.gpg"), path("content.bin")])
        #expect(detachedWithOutput.status == 64 && detachedWithOutput.stderr.contains("-o is for inline-signed messages"))
    }

    /// `name` with one byte of its literal content flipped fails with the bad-signature error, exit 1,
    /// and -o leaves no file and prints nothing.
    func expectBadSignature(altering name: String, content: Data) async throws {
        var altered = try read(name)
        let start = try #require(altered.range(of: content.prefix(32))).lowerBound
        altered[start + 1000] ^= 0x01
        try write("altered-\(name)", altered)
        let bad = try await pgp(["verify", "-o", path("altered.out"), path("altered-\(name)")])
        #expect(bad.status == 1, "\(bad.stderr)")
        #expect(bad.stderr.contains("BAD or unverifiable signature") && bad.stderr.contains("bad signature"), "\(bad.stderr)")
        #expect(!exists("altered.out"))
        let piped = try await pgp(["verify", "-o", "-", path("altered-\(name)")])
        #expect(piped.status == 1 && piped.stdout.isEmpty)
    }
}
