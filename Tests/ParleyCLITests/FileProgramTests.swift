import Foundation
import ParleyTestSupport
import Testing

/// `parley-file`, the file commands as a program of their own (docs/FILES.md), through the built binary: it makes and
/// reads the same files as `parley file`, and refuses bad input as `parley file` does, in words.
@Suite("parley-file", .offThePool)
struct FileProgramTests {
    let directory: URL
    private let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory("parley-file-program")
        directory = scratch.url
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }
    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    func program(_ arguments: [String], stdin: String? = nil, password: String? = nil) throws -> ParleyBinary.Result {
        try ParleyBinary.run(arguments, stdin: stdin, environment: password.map { ["PARLEY_PASSWORD": $0] } ?? [:], program: "parley-file")
    }

    func parley(_ arguments: [String], password: String? = nil) throws -> ParleyBinary.Result {
        try ParleyBinary.run(["file"] + arguments, environment: password.map { ["PARLEY_PASSWORD": $0] } ?? [:])
    }

    /// 300 KiB of random bytes: several 64 KiB chunks and a short last one.
    func writePlaintext(_ name: String) throws -> Data {
        let bytes = Data((0..<(300 * 1024 + 17)).map { _ in UInt8.random(in: 0...255) })
        try bytes.write(to: URL(fileURLWithPath: path(name)))
        return bytes
    }

    @Test("a key made by parley-file, a file sealed by one program and opened by the other, both ways")
    func sameFilesAsParleyFile() throws {
        let keygen = try program(["keygen", "-o", path("me.ecp1"), "--public", path("me.pem"), "--iterations", "210000"], password: "key pw")
        #expect(keygen.status == 0, "\(keygen.stderr)")
        #expect(keygen.stdout.contains("private key: \(path("me.ecp1")) (x25519, sealed under your password)"))
        let plaintext = try writePlaintext("plain")

        #expect(try program(["seal", "-r", path("me.pem"), path("plain"), "-o", path("a.prly")]).status == 0)
        let inspect = try parley(["inspect", path("a.prly")])
        #expect(inspect.stdout.contains("format: Parley file v1") && inspect.stdout.contains("plaintext: \(plaintext.count) bytes"), "\(inspect.stdout)")
        #expect(try parley(["open", "-i", path("me.ecp1"), path("a.prly"), "-o", path("a.out")], password: "key pw").status == 0)
        #expect(try read("a.out") == plaintext)

        #expect(try parley(["seal", "-r", path("me.pem"), path("plain"), "-o", path("b.prly")]).status == 0)
        let open = try program(["open", "-i", path("me.ecp1"), path("b.prly"), "-o", path("b.out")], password: "key pw")
        #expect(open.status == 0, "\(open.stderr)")
        #expect(try read("b.out") == plaintext)
    }

    @Test("a passphrase typed composed in one program and decomposed in the other opens the file (both NFC)")
    func passphrasesAreNormalisedAlike() throws {
        let plaintext = try writePlaintext("plain")
        let composed = "p\u{E4}ss w\u{F6}rd", decomposed = "pa\u{308}ss wo\u{308}rd"
        let seal = try program(["seal", "--passphrase", "--work-factor", "14", path("plain"), "-o", path("p.prly")], password: decomposed)
        #expect(seal.status == 0, "\(seal.stderr)")
        #expect(try parley(["open", path("p.prly"), "-o", path("p.out")], password: composed).status == 0)
        #expect(try read("p.out") == plaintext)
        let wrong = try program(["open", path("p.prly"), "-o", path("wrong.out")], password: "pass word")
        #expect(wrong.status == 1 && !exists("wrong.out"))
    }

    @Test("garbage, a cut file and one flipped byte are refused in words, exit 1, and leave no output file")
    func badInputIsRefused() throws {
        #expect(try program(["keygen", "-o", path("me.ecp1"), "--public", path("me.pem"), "--iterations", "210000"], password: "key pw").status == 0)
        _ = try writePlaintext("plain")
        #expect(try program(["seal", "-r", path("me.pem"), path("plain"), "-o", path("good.prly")]).status == 0)
        let good = try read("good.prly")
        var flipped = good
        flipped[good.count - 1000] ^= 0x01
        let inputs: [(String, Data)] = [
            ("garbage", Data((0..<5000).map { _ in UInt8.random(in: 0...255) })),
            ("empty", Data()),
            ("cut", good.prefix(good.count - 70_000)),
            ("flipped", flipped),
        ]
        for (name, bytes) in inputs {
            try bytes.write(to: URL(fileURLWithPath: path(name)))
            let open = try program(["open", "-i", path("me.ecp1"), path(name), "-o", path("\(name).out")], password: "key pw")
            #expect(open.status == 1, "\(name): \(open.stderr)")
            #expect(open.stderr.hasPrefix("Error: ") && !open.stderr.contains("Fatal error"), "\(name): \(open.stderr)")
            #expect(!exists("\(name).out"), "\(name): nothing is written unless every chunk authenticates")
            #expect(!open.stderr.contains("key pw"))
        }
        let wrongPassword = try program(["open", "-i", path("me.ecp1"), path("good.prly"), "-o", path("x.out")], password: "not it")
        #expect(wrongPassword.status == 1 && !exists("x.out") && !wrongPassword.stderr.contains("not it"))
    }

    @Test("a file name with terminal controls is shown inert in the error")
    func hostileNamesAreInert() throws {
        let open = try program(["open", "-i", path("none.ecp1"), path("\u{1B}]0;owned\u{07}\u{1B}[2J"), "-o", path("out")])
        #expect(open.status != 0)
        #expect(!open.stderr.contains("\u{1B}") && !open.stderr.contains("\u{07}"), "\(open.stderr.debugDescription)")
        #expect(open.stderr.contains("␛]0;owned␇␛[2J"))
    }

    @Test("--help names the six operations, --version is parley's, an unknown one is a usage error")
    func help() throws {
        let help = try program(["--help"])
        #expect(help.status == 0)
        for name in ["keygen", "seal", "open", "inspect", "wrap", "unwrap"] { #expect(help.stdout.contains(name)) }
        let version = try program(["--version"]).stdout
        #expect(version == (try ParleyBinary.run(["--version"]).stdout) && !version.isEmpty)
        let unknown = try program(["shred", "x"])
        #expect(unknown.status == 64 && unknown.stderr.contains("shred"))
    }

    /// By SIGPIPE when it is not ignored (a shell); when the parent ignores it (this test process does, and passes
    /// that on), exit 1 and the reason in words. Never a crash.
    @Test("sealing into a pipe whose reader goes away ends as a pipe's writer does, or says why")
    func brokenPipe() throws {
        _ = try writePlaintext("plain")
        #expect(try program(["keygen", "-o", path("me.ecp1"), "--public", path("me.pem"), "--iterations", "210000"], password: "key pw").status == 0)
        let cut = try BrokenPipeCommandTests.pipeline(
            "parley-file seal -r '\(path("me.pem"))' '\(path("plain"))' -o - | head -c 100 >/dev/null")
        #expect(!cut.stderr.contains("Fatal error") && !cut.stderr.contains("Backtrace"), "\(cut.stderr)")
        let statuses = cut.statuses.split(separator: " ").dropFirst().map(String.init)
        #expect(statuses.count == 2, "\(cut.statuses)")
        let quiet = statuses.first == "141" || statuses.first == "0"
        let said = statuses.first == "1" && cut.stderr.contains("Error: the output was closed by whatever was reading it")
        #expect(quiet || said, "\(cut.statuses): \(cut.stderr)")
    }

    /// Their 15 MiB depend on it: one `import Foundation` in ParleyFiles, ParleyPGP or the libraries under them would
    /// link all of Foundation and ICU into the lean programs again (`parley` itself refers to Foundation hundreds of
    /// times, which shows the check can see it).
    @Test("parley-file and parley-sop link none of Foundation (FoundationEssentials only)", arguments: ["parley-file", "parley-sop"])
    func noFoundation(program: String) throws {
        func foundationSymbols(_ name: String) throws -> Int {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/nm")
            process.arguments = [ParleyBinary.productsDirectory.appendingPathComponent(name).path]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try ProcessLaunch.start(process)
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "nm \(name)")
            return text.split(separator: "\n").filter { $0.contains("$s10Foundation") }.count
        }
        #expect(try foundationSymbols("parley") > 0, "the check finds Foundation where it is")
        #expect(try foundationSymbols(program) == 0)
    }
}
