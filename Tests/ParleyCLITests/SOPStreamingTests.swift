import Foundation
import ParleyTestSupport
import Testing

/// `parley sop` streams standard input to standard output: large data in bounded memory, and output
/// that is valid only once its end was checked (decrypted plaintext, armor) never reaches stdout in part.
///
/// Every child process is waited for on a thread of its own (`Blocking`): a test that held one of the
/// two cooperative threads for the minutes these runs take in a debug build starved the in-process
/// servers of every other suite until their requests timed out.
@Suite("parley sop streaming", .serialized, .offThePool)
struct SOPStreamingTests {
    let directory: URL
    /// Removed with everything in it when the test's instance goes.
    private let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory("parley-sop-stream")
        directory = scratch.url
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func parley(_ arguments: [String], stdin: Data = Data()) async throws -> (status: Int32, stdout: Data) {
        try await Blocking.run {
            let result = try ParleyBinary.runBinary(["sop"] + arguments, stdin: stdin)
            return (result.status, result.stdout)
        }
    }

    /// Runs `parley sop …` from file to file under /usr/bin/time; returns the exit status and peak RSS in KiB.
    func parleyFiles(_ arguments: [String], input: String, output: String) async throws -> (status: Int32, peakKiB: Int) {
        let rssPath = path("rss")
        return try await Blocking.run { try Self.timed(arguments, input: input, output: output, rssPath: rssPath) }
    }

    private static func timed(_ arguments: [String], input: String, output: String, rssPath: String) throws -> (status: Int32, peakKiB: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", rssPath, ParleyBinary.productsDirectory.appendingPathComponent("parley").path, "sop"] + arguments
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        try ProcessLaunch.start(process)
        process.waitUntilExit()
        let rss = String(decoding: try Data(contentsOf: URL(fileURLWithPath: rssPath)), as: UTF8.self)
        // time prints "Command exited with non-zero status N" first when the command failed.
        return (process.terminationStatus, Int(rss.split(separator: "\n").last ?? "") ?? -1)
    }

    func key() async throws {
        let key = try await parley(["generate-key", "Stream <stream@example.org>"]).stdout
        try key.write(to: URL(fileURLWithPath: path("key")))
        try await parley(["extract-cert"], stdin: key).stdout.write(to: URL(fileURLWithPath: path("cert")))
    }

    /// Whether two files hold the same bytes, compared a chunk at a time.
    func sameFiles(_ a: String, _ b: String) async throws -> Bool {
        try await Blocking.run { try Self.compare(a, b) }
    }

    private static func compare(_ a: String, _ b: String) throws -> Bool {
        let first = try FileHandle(forReadingFrom: URL(fileURLWithPath: a)), second = try FileHandle(forReadingFrom: URL(fileURLWithPath: b))
        defer { try? first.close(); try? second.close() }
        while true {
            let x = try first.read(upToCount: 1 << 20) ?? Data(), y = try second.read(upToCount: 1 << 20) ?? Data()
            guard x == y else { return false }
            if x.isEmpty { return true }
        }
    }

    @Test("24 MiB through sop encrypt, decrypt, armor and dearmor in bounded memory")
    func largeRoundTripInBoundedMemory() async throws {
        try await key()
        // More than the bound below, so holding the data whole could not pass; small enough for a debug build.
        let size = 24 << 20
        var generator = SystemRandomNumberGenerator()
        let block = Data((0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        _ = FileManager.default.createFile(atPath: path("plain"), contents: nil)
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: path("plain")))
        for index in 0..<(size >> 20) {
            try writer.write(contentsOf: block.prefix(1 << 20 - index))
            try writer.write(contentsOf: block.suffix(index))
        }
        try writer.close()
        // Holding the data whole would need its 24 MiB above start-up; streaming needs a few buffers.
        let startup = try await parleyFiles(["version"], input: "/dev/null", output: path("version")).peakKiB
        #expect(startup > 0)
        let bound = startup + (16 << 10)
        let encrypted = try await parleyFiles(["encrypt", "--no-armor", path("cert")], input: path("plain"), output: path("enc"))
        #expect(encrypted.status == 0)
        #expect(encrypted.peakKiB > 0 && encrypted.peakKiB < bound, "encrypt peak RSS \(encrypted.peakKiB) KiB")
        let armored = try await parleyFiles(["armor"], input: path("enc"), output: path("enc.asc"))
        #expect(armored.status == 0)
        #expect(armored.peakKiB > 0 && armored.peakKiB < bound, "armor peak RSS \(armored.peakKiB) KiB")
        let dearmored = try await parleyFiles(["dearmor"], input: path("enc.asc"), output: path("enc.bin"))
        #expect(dearmored.status == 0)
        #expect(try await sameFiles(path("enc"), path("enc.bin")))
        #expect(dearmored.peakKiB > 0 && dearmored.peakKiB < bound, "dearmor peak RSS \(dearmored.peakKiB) KiB")
        let decrypted = try await parleyFiles(["decrypt", path("key")], input: path("enc.asc"), output: path("out"))
        #expect(decrypted.status == 0)
        #expect(decrypted.peakKiB > 0 && decrypted.peakKiB < bound, "decrypt peak RSS \(decrypted.peakKiB) KiB")
        #expect(try await sameFiles(path("plain"), path("out")))
    }

    @Test("cut, altered and garbage input exit with SOP's codes and print nothing")
    func badInputExitsWithNothingOnStdout() async throws {
        try await key()
        let plain = Data((0..<(300_000)).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let encrypted = try await parley(["encrypt", "--no-armor", path("cert")], stdin: plain).stdout
        #expect(try await parley(["decrypt", path("key")], stdin: encrypted).stdout == plain)
        var altered = encrypted
        altered[altered.count - 100] ^= 1
        let cases: [(String, [String], Data, Int32)] = [
            ("altered near the end: the MDC fails after most plaintext was decrypted", ["decrypt", path("key")], altered, 29),
            ("cut short", ["decrypt", path("key")], encrypted.prefix(encrypted.count - 1000), 29),
            ("cut inside the session key packet", ["decrypt", path("key")], encrypted.prefix(20), 29),
            ("garbage", ["decrypt", path("key")], Data("garbage".utf8), 41),
            ("empty", ["decrypt", path("key")], Data(), 41),
            ("armor of garbage", ["armor"], Data([0x00, 0x01, 0x02]), 41),
            ("armor of a cut packet", ["armor"], encrypted.prefix(5000), 41),
            ("dearmor with a bad checksum", ["dearmor"], Data("-----BEGIN PGP MESSAGE-----\n\nyMBhYmNk\n=AAAA\n-----END PGP MESSAGE-----\n".utf8), 41),
            ("dearmor without an END line", ["dearmor"], Data("-----BEGIN PGP MESSAGE-----\n\nyMBhYmNk\n".utf8), 41),
            ("inline-verify of a cut message", ["inline-verify", path("cert")], encrypted.prefix(100), 41),
        ]
        for (what, arguments, stdin, code) in cases {
            let (status, stdout) = try await parley(arguments, stdin: stdin)
            #expect(status == code, "\(what)")
            #expect(stdout.isEmpty, "\(what): nothing on stdout")
        }
    }

    @Test("inline-verify releases the signed data only after a good signature")
    func inlineVerifyHoldsBackUnverifiedData() async throws {
        try await key()
        let data = Data((0..<(200_000)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let signed = try await parley(["inline-sign", "--no-armor", path("key")], stdin: data).stdout
        #expect(try await parley(["inline-verify", path("cert")], stdin: signed).stdout == data)
        let other = try await parley(["generate-key", "Other <other@example.org>"]).stdout
        try await parley(["extract-cert"], stdin: other).stdout.write(to: URL(fileURLWithPath: path("other")))
        let (status, stdout) = try await parley(["inline-verify", path("other")], stdin: signed)
        #expect(status == 3)
        #expect(stdout.isEmpty)
    }

    @Test("clearsigned text and inline-detach stream: 9 MiB of text in the memory of 1 MiB, bad input leaves stdout empty")
    func clearsignedAndDetachStream() async throws {
        try await key()
        // Text lines of every length, some dash-escaped, some with trailing whitespace, CRLF and LF.
        let lines = (0..<40).map { index -> String in
            (index % 3 == 0 ? "- " : "") + String(repeating: "word\(index) ", count: index * 7) + (index % 4 == 0 ? " \t\r\n" : "\n")
        }.joined()
        let text = String(repeating: lines, count: max(1, (1 << 20) / lines.utf8.count))
        let bytes = Data(text.utf8)
        try bytes.write(to: URL(fileURLWithPath: path("small")))
        // The same text nine times over, written without string work: this test shares the cooperative
        // threads with other suites' in-process servers, so the heavy lifting stays in the child processes.
        _ = FileManager.default.createFile(atPath: path("big"), contents: nil)
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: path("big")))
        for _ in 0..<9 { try writer.write(contentsOf: bytes) }
        try writer.close()

        // Each step on 9 MiB must peak within 4 MiB of the same step on 1 MiB: holding the text would add 8.
        for size in ["small", "big"] {
            let signed = try await parleyFiles(["inline-sign", "--as=clearsigned", path("key")], input: path(size), output: path("\(size).asc"))
            let verified = try await parleyFiles(["inline-verify", path("cert")], input: path("\(size).asc"), output: path("\(size).verified"))
            let detached = try await parleyFiles(["inline-detach", "--signatures-out", path("\(size).sigs")], input: path("\(size).asc"),
                                                 output: path("\(size).data"))
            #expect([signed.status, verified.status, detached.status] == [0, 0, 0], "\(size)")
            try Data("\(signed.peakKiB) \(verified.peakKiB) \(detached.peakKiB)".utf8).write(to: URL(fileURLWithPath: path("\(size).rss")))
            #expect(try await sameFiles(path("\(size).verified"), path("\(size).data")))
        }
        let peaks = try ["small", "big"].map { size in
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: path("\(size).rss"))), as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        }
        #expect(peaks[0].count == 3 && peaks[1].count == 3)
        for (step, (small, big)) in zip(["inline-sign", "inline-verify", "inline-detach"], zip(peaks[0], peaks[1])) {
            #expect(small > 0 && big < small + (4 << 10), "\(step): peak RSS \(small) KiB on 1 MiB, \(big) KiB on 9 MiB")
        }
        // Both print the text with LF line endings; it is the signed text plus the final line ending.
        let shown = text.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("small.data"))) == Data(shown.utf8))
        // The signature covers the lines without trailing whitespace and without the final line ending.
        let canonicalForm = Data(shown.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }.joined(separator: "\n").utf8)
        #expect(try await parley(["verify", path("small.sigs"), path("cert")], stdin: canonicalForm).status == 0)

        // A binary signed message detaches too; its data is the bytes signed.
        let binary = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let inline = try await parley(["inline-sign", path("key")], stdin: binary).stdout
        let (binaryStatus, binaryData) = try await parley(["inline-detach", "--signatures-out", path("binary-sigs"), "--no-armor"], stdin: inline)
        #expect(binaryStatus == 0 && binaryData == binary)
        #expect(try await parley(["verify", path("binary-sigs"), path("cert")], stdin: binary).status == 0)

        let encrypted = try await parley(["encrypt", path("cert")], stdin: Data("secret".utf8)).stdout
        let cases: [(String, [String], Data, Int32)] = [
            ("text that is not UTF-8", ["inline-sign", "--as=clearsigned", path("key")], Data("fine\n".utf8) + Data([0xC3, 0x28]), 53),
            ("text cut inside a character", ["inline-sign", "--as=clearsigned", path("key")], Data("caf".utf8) + Data([0xC3]), 53),
            ("detach of a cut message", ["inline-detach", "--signatures-out", path("cut-sigs")], inline.prefix(inline.count / 2), 41),
            ("detach of a message without signatures", ["inline-detach", "--signatures-out", path("none")], try await parley(["armor"], stdin: Data()).stdout, 41),
            ("detach of an encrypted message", ["inline-detach", "--signatures-out", path("enc-sigs")], encrypted, 41),
            ("detach of a cleartext message without its signature",
             ["inline-detach", "--signatures-out", path("clear-sigs")], Data("-----BEGIN PGP SIGNED MESSAGE-----\n\ntext\n".utf8), 41),
        ]
        for (what, arguments, stdin, code) in cases {
            let (status, stdout) = try await parley(arguments, stdin: stdin)
            #expect(status == code, "\(what)")
            #expect(stdout.isEmpty, "\(what): nothing on stdout")
        }
        for name in ["cut-sigs", "none", "enc-sigs", "clear-sigs"] {
            #expect(!FileManager.default.fileExists(atPath: path(name)), "\(name) not written")
        }
    }
}
