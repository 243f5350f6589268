import Foundation
import ParleyTestSupport
import Testing

@Suite("parley envelope", .offThePool)
struct EnvelopeCommandTests {
    let directory: URL
    /// Removed with everything in it when the test's instance goes.
    private let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory("parley-cli")
        directory = scratch.url
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    @Test("seal then open gives the secret back; the envelope is private and holds no plaintext")
    func roundTrip() throws {
        let secret = "identity seed 0123456789abcdef"
        try Data(secret.utf8).write(to: URL(fileURLWithPath: path("secret")))
        let seal = try ParleyBinary.run(
            ["envelope", "seal", "-i", path("secret"), "-o", path("secret.ecp1"), "--password-stdin", "--iterations", "210000"],
            stdin: "s3cret pass\n")
        #expect(seal.status == 0, "\(seal.stderr)")
        let envelope = try Data(contentsOf: URL(fileURLWithPath: path("secret.ecp1")))
        #expect(envelope.prefix(4) == Data("ECP1".utf8))
        #expect(envelope.range(of: Data(secret.utf8)) == nil)
        let mode = try FileManager.default.attributesOfItem(atPath: path("secret.ecp1"))[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let open = try ParleyBinary.run(
            ["envelope", "open", "-i", path("secret.ecp1"), "-o", "-"], environment: ["PARLEY_PASSWORD": "s3cret pass"])
        #expect(open.status == 0)
        #expect(open.stdout == secret)
    }

    @Test("a wrong password fails with a clear message that does not echo the password")
    func wrongPassword() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: path("secret")))
        _ = try ParleyBinary.run(
            ["envelope", "seal", "-i", path("secret"), "-o", path("e"), "--password-stdin", "--iterations", "210000"],
            stdin: "right\n")
        let open = try ParleyBinary.run(
            ["envelope", "open", "-i", path("e"), "-o", path("out"), "--password-stdin"], stdin: "guessed-wrong\n")
        #expect(open.status != 0)
        #expect(open.stderr.contains("wrong password"))
        #expect(!open.stderr.contains("guessed-wrong"))
        #expect(!FileManager.default.fileExists(atPath: path("out")))
    }

    @Test("garbage input is a corrupt envelope, not a crash")
    func garbage() throws {
        try Data("definitely not an envelope".utf8).write(to: URL(fileURLWithPath: path("junk")))
        let open = try ParleyBinary.run(["envelope", "open", "-i", path("junk"), "-o", "-"], environment: ["PARLEY_PASSWORD": "x"])
        #expect(open.status == 1)
        #expect(open.stderr.contains("corrupt key envelope"))
    }

    @Test("an existing output is never replaced without --force")
    func noClobber() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: path("secret")))
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path("existing")))
        let seal = try ParleyBinary.run(
            ["envelope", "seal", "-i", path("secret"), "-o", path("existing"), "--iterations", "210000"],
            environment: ["PARLEY_PASSWORD": "pw"])
        #expect(seal.status != 0)
        #expect(seal.stderr.contains("--force"))
        #expect(try String(contentsOfFile: path("existing"), encoding: .utf8) == "keep me")
    }

    @Test("without a password source and no terminal, it says how to give one")
    func noPassword() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: path("secret")))
        let seal = try ParleyBinary.run(["envelope", "seal", "-i", path("secret"), "-o", path("e")], environment: ["PARLEY_PASSWORD": ""])
        #expect(seal.status != 0)
        #expect(seal.stderr.contains("--password-stdin"))
    }

    @Test("a password on the command line is not an option")
    func noArgvPassword() throws {
        let result = try ParleyBinary.run(["envelope", "seal", "-i", "a", "-o", "b", "--password", "oops"])
        #expect(result.status == 64)
    }
}
