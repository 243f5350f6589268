import ParleyTestSupport
import Foundation
import Testing

/// `parley sop` against itself and against Sequoia's `sqop` (installed by scripts/test from
/// scripts/test-tools.txt; the tests fail, not skip, without it). The exit codes and the interoperation with sqop are
/// checked for the program `parley-sop` too, which runs the same commands on its own.
@Suite("parley sop", .serialized, .offThePool)
struct SOPCommandTests {
    let directory: URL
    let message = Data("SOP interop message\nwith two lines ✓\n".utf8)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-sop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func write(_ name: String, _ data: Data) throws { try data.write(to: URL(fileURLWithPath: path(name))) }

    func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// Runs `parley sop …` (or `parley-sop …` when `program` says so); returns status and stdout.
    func parley(_ arguments: [String], stdin: Data = Data(), program: String = "parley") throws -> (Int32, Data) {
        let result = try Self.run(arguments, stdin: stdin, program: program)
        return (result.status, result.stdout)
    }

    /// `parley sop ARGUMENTS`, or `parley-sop ARGUMENTS`.
    static func run(_ arguments: [String], stdin: Data, program: String) throws -> ParleyBinary.BinaryResult {
        program == "parley-sop"
            ? try ParleyBinary.runBinary(arguments, stdin: stdin, program: program)
            : try ParleyBinary.runBinary(["sop"] + arguments, stdin: stdin)
    }

    /// Runs `sqop …` the same way.
    func sqop(_ arguments: [String], stdin: Data = Data()) throws -> (Int32, Data) {
        try write("sqop.in", stdin)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqop")
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path("sqop.in")))
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try ProcessLaunch.start(process)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    func parleyKey(_ name: String, program: String = "parley") throws {
        let (status, key) = try parley(["generate-key", "\(name) <\(name)@example.org>"], program: program)
        #expect(status == 0)
        try write("\(name).key", key)
        let (certStatus, cert) = try parley(["extract-cert"], stdin: key, program: program)
        #expect(certStatus == 0)
        #expect(String(decoding: cert, as: UTF8.self).hasPrefix("-----BEGIN PGP PUBLIC KEY BLOCK-----"))
        try write("\(name).cert", cert)
    }

    @Test("version names parley")
    func version() throws {
        let (status, out) = try parley(["version"])
        #expect(status == 0)
        #expect(String(decoding: out, as: UTF8.self).hasPrefix("parley "))
    }

    @Test("parley encrypts, signs and decrypts with itself; exit codes follow the SOP draft")
    func selfRoundTrip() throws {
        try parleyKey("alice")
        try parleyKey("eve")
        let (encStatus, encrypted) = try parley(["encrypt", "--sign-with", path("alice.key"), path("alice.cert")], stdin: message)
        #expect(encStatus == 0)
        try write("msg.asc", encrypted)
        let (decStatus, plain) = try parley(["decrypt", "--verify-with", path("alice.cert"), "--verifications-out", path("verified"),
                                             "--session-key-out", path("sk"), path("alice.key")], stdin: encrypted)
        #expect(decStatus == 0)
        #expect(plain == message)
        #expect(String(decoding: try read("verified"), as: UTF8.self).contains(" mode:binary"))
        #expect(String(decoding: try read("sk"), as: UTF8.self).hasPrefix("9:"))
        #expect(try parley(["decrypt", "--with-session-key", path("sk")], stdin: encrypted).1 == message)
        #expect(try parley(["decrypt", path("eve.key")], stdin: encrypted).0 == 29)
        #expect(try parley(["decrypt"], stdin: encrypted).0 == 19)
        let (_, signature) = try parley(["sign", path("alice.key")], stdin: message)
        try write("sig", signature)
        let (verifyStatus, lines) = try parley(["verify", path("sig"), path("alice.cert")], stdin: message)
        #expect(verifyStatus == 0)
        #expect(String(decoding: lines, as: UTF8.self).split(separator: " ").count == 4)
        #expect(try parley(["verify", path("sig"), path("eve.cert")], stdin: message).0 == 3)
        #expect(try parley(["verify", "--not-before", "-", "--not-after", "2100-01-01T00:00:00Z", path("sig"), path("alice.cert")], stdin: message).0 == 0)
        #expect(try parley(["verify", "--not-after", "2001-01-01T00:00:00Z", path("sig"), path("alice.cert")], stdin: message).0 == 3)
        #expect(try parley(["verify", "--not-before", "2100-01-01", path("sig"), path("alice.cert")], stdin: message).0 == 3)
        #expect(try parley(["verify", path("sig"), path("alice.cert")], stdin: Data("other".utf8)).0 == 3)
        let (_, dearmored) = try parley(["dearmor"], stdin: encrypted)
        let (_, rearmored) = try parley(["armor"], stdin: dearmored)
        #expect(try parley(["decrypt", path("alice.key")], stdin: rearmored).1 == message)
        #expect(try parley(["decrypt", path("alice.key")], stdin: Data("garbage".utf8)).0 != 0)
    }

    @Test("decrypt reads exactly one encrypted message: not encrypted exits 29, anything after it 41, and stdout stays empty",
          arguments: ["parley", "parley-sop"])
    func strictDecrypt(program: String) throws {
        try parleyKey("alice", program: program)
        let (_, encrypted) = try parley(["encrypt", path("alice.cert")], stdin: message, program: program)
        let (_, binary) = try parley(["dearmor"], stdin: encrypted, program: program)
        let (_, signed) = try parley(["inline-sign", path("alice.key")], stdin: message, program: program)
        let notEncrypted = try parley(["decrypt", path("alice.key")], stdin: signed, program: program)
        #expect(notEncrypted.0 == 29 && notEncrypted.1.isEmpty)
        for (what, input) in [("a second copy", encrypted + encrypted), ("text after the armor", encrypted + Data("P.S.\n".utf8)),
                              ("stray bytes", binary + Data(repeating: 0xA5, count: 100)), ("a second binary copy", binary + binary)] {
            let (status, out) = try parley(["decrypt", path("alice.key")], stdin: input, program: program)
            #expect(status == 41, "\(what): exit \(status)")
            #expect(out.isEmpty, "\(what): plaintext on stdout")
        }
        let garbage = Data((0..<4096).map { _ in UInt8.random(in: 0...255) })
        #expect(try parley(["decrypt", path("alice.key")], stdin: garbage, program: program).0 != 0)
        #expect(try parley(["decrypt", path("alice.key")], stdin: encrypted.prefix(encrypted.count / 2), program: program).0 != 0)
        // The one message still decrypts.
        let (status, plain) = try parley(["decrypt", path("alice.key")], stdin: encrypted, program: program)
        #expect(status == 0 && plain == message)
    }

    @Test("command-line mistakes exit 37 (unsupported option), 69 (unknown subcommand) or 19 (missing argument), printing nothing on stdout",
          arguments: ["parley", "parley-sop"])
    func usageErrorsUseSOPExitCodes(program: String) throws {
        try parleyKey("alice", program: program)
        let cases: [(arguments: [String], code: Int32)] = [
            (["sign", "--no-such-option"], 37),
            (["sign", "--no-such-option", path("alice.key")], 37),
            (["sign", "--no-armor=yes", path("alice.key")], 37),  // a flag given a value
            (["sign", "--as=nonsense", path("alice.key")], 37),  // a value the option does not support
            (["armor", "an-argument-armor-does-not-take"], 37),
            (["--no-such-option"], 37),
            (["frobnicate"], 69),
            (["frobnicate", "--no-armor", path("alice.key")], 69),  // the unknown subcommand, not its options, is the mistake
            (["sign", "--with-key-password"], 19),  // an option without its value
            (["encrypt", "--with-password"], 19),
            (["sign"], 19),  // no KEYS
            (["verify", path("alice.cert")], 19),  // no SIGNATURES and CERTS
        ]
        for (arguments, code) in cases {
            let result = try Self.run(arguments, stdin: message, program: program)
            #expect(result.status == code, "\(program) sop \(arguments.joined(separator: " ")): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(program) sop \(arguments.joined(separator: " "))")
            #expect(!result.stderr.isEmpty, "\(program) sop \(arguments.joined(separator: " ")) says why")
        }
        #expect(try Self.run(["frobnicate"], stdin: Data(), program: program).stderr.contains("no subcommand 'frobnicate'"))
        // Other commands keep ArgumentParser's usage exit code.
        #expect(try ParleyBinary.runBinary(["pgp", "verify", "--no-such-option"], stdin: Data()).status == 64)
        #expect(try ParleyBinary.runBinary(["frobnicate"], stdin: Data()).status == 64)
    }

    @Test("generate-key --profile rfc4880 makes an RSA key sqop can encrypt to")
    func rsaProfile() throws {
        let (status, key) = try parley(["generate-key", "--profile", "rfc4880", "R <r@example.org>"])
        #expect(status == 0)
        try write("r.key", key)
        let (_, cert) = try parley(["extract-cert"], stdin: key)
        try write("r.cert", cert)
        let (_, encrypted) = try sqop(["encrypt", path("r.cert")], stdin: message)
        #expect(try parley(["decrypt", path("r.key")], stdin: encrypted).1 == message)
        #expect(try parley(["generate-key", "--profile", "nonsense"]).0 == 89)
    }

    @Test("a protected parley key needs --with-key-password (exit 67 without)")
    func protectedKey() throws {
        try write("pw", Data("a sufficiently long pass phrase\n".utf8))
        let (_, key) = try parley(["generate-key", "--with-key-password", path("pw"), "Locked <l@example.org>"])
        try write("locked.key", key)
        #expect(try parley(["sign", path("locked.key")], stdin: message).0 == 67)
        #expect(try parley(["sign", "--with-key-password", path("pw"), path("locked.key")], stdin: message).0 == 0)
    }

    @Test("sqop → parley and parley → sqop: encrypt, sign, verify, password", arguments: ["parley", "parley-sop"])
    func sqopInterop(program: String) throws {
        try parleyKey("alice", program: program)
        let (_, bobKey) = try sqop(["generate-key", "Bob <bob@example.org>"])
        try write("bob.key", bobKey)
        let (_, bobCert) = try sqop(["extract-cert"], stdin: bobKey)
        try write("bob.cert", bobCert)

        // sqop → parley
        let (sqEncStatus, toAlice) = try sqop(["encrypt", "--sign-with", path("bob.key"), path("alice.cert")], stdin: message)
        #expect(sqEncStatus == 0)
        let (decStatus, plain) = try parley(["decrypt", "--verify-with", path("bob.cert"), "--verifications-out", path("v"), path("alice.key")], stdin: toAlice, program: program)
        #expect(decStatus == 0)
        #expect(plain == message)
        #expect(!(try read("v")).isEmpty)
        let (_, bobSig) = try sqop(["sign", path("bob.key")], stdin: message)
        try write("bob.sig", bobSig)
        #expect(try parley(["verify", path("bob.sig"), path("bob.cert")], stdin: message, program: program).0 == 0)

        // parley → sqop
        let (_, toBob) = try parley(["encrypt", "--sign-with", path("alice.key"), path("bob.cert")], stdin: message, program: program)
        let (sqDecStatus, sqPlain) = try sqop(["decrypt", "--verify-with", path("alice.cert"), "--verifications-out", path("sv"), path("bob.key")], stdin: toBob)
        #expect(sqDecStatus == 0)
        #expect(sqPlain == message)
        #expect(!(try read("sv")).isEmpty)
        let (_, aliceSig) = try parley(["sign", path("alice.key")], stdin: message, program: program)
        try write("alice.sig", aliceSig)
        #expect(try sqop(["verify", path("alice.sig"), path("alice.cert")], stdin: message).0 == 0)

        // Passwords both ways.
        try write("pw", Data("shared secret words".utf8))
        let (_, parleyPw) = try parley(["encrypt", "--with-password", path("pw")], stdin: message, program: program)
        #expect(try sqop(["decrypt", "--with-password", path("pw")], stdin: parleyPw).1 == message)
        let (_, sqopPw) = try sqop(["encrypt", "--with-password", path("pw")], stdin: message)
        #expect(try parley(["decrypt", "--with-password", path("pw")], stdin: sqopPw, program: program).1 == message)
    }

    @Test("inline-sign, inline-verify and inline-detach, with sqop on the other side")
    func inlineSignatures() throws {
        try parleyKey("alice")
        for mode in ["binary", "text", "clearsigned"] {
            let (status, signed) = try parley(["inline-sign", "--as", mode, path("alice.key")], stdin: message)
            #expect(status == 0)
            let (verifyStatus, data) = try parley(["inline-verify", path("alice.cert")], stdin: signed)
            #expect(verifyStatus == 0)
            // Cleartext output ends every line with LF, as sqop and gpg print it.
            let expected = message
            #expect(data == Data(expected))
            #expect(try sqop(["inline-verify", path("alice.cert")], stdin: signed).1 == Data(expected))
            let (detachStatus, detached) = try parley(["inline-detach", "--signatures-out", path("sigs-\(mode)")], stdin: signed)
            #expect(detachStatus == 0)
            // A cleartext signature covers the text without its final line ending (sqop behaves the same).
            let signedData = mode == "clearsigned" ? detached.dropLast() : detached
            #expect(try parley(["verify", path("sigs-\(mode)"), path("alice.cert")], stdin: Data(signedData)).0 == 0)
        }
        let (_, bobKey) = try sqop(["generate-key", "Bob <bob@example.org>"])
        try write("bob.key", bobKey)
        try write("bob.cert", try sqop(["extract-cert"], stdin: bobKey).1)
        for mode in ["binary", "clearsigned"] {
            let (_, signed) = try sqop(["inline-sign", "--as", mode, path("bob.key")], stdin: message)
            #expect(try parley(["inline-verify", path("bob.cert")], stdin: signed).0 == 0)
            #expect(try parley(["inline-verify", path("alice.cert")], stdin: signed).0 == 3)
        }
    }
}
