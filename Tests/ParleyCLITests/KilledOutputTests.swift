import Foundation
import ParleyTestSupport
import Testing

/// A command killed while it writes its output leaves nothing beside it (found by an outside probe: `parley download`
/// killed with kill -9 left 23 MiB of the plaintext in a hidden file that nothing removed). The output is written to a
/// file without a name (`O_TMPFILE`), which the kernel frees with the process.
@Suite("Output of a killed command", .offThePool)
struct KilledOutputTests {
    @Test func aKilledDecryptionLeavesNoPlaintext() throws {
        #if os(Linux)
        let scratch = try TemporaryDirectory("parley-killed-output")
        func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }
        let keys = try ParleyBinary.run(
            ["file", "keygen", "--kind", "x25519", "-o", path("me.ecp1"), "--public", path("me.pem"), "--iterations", "210000",
             "--password-stdin"], stdin: "key pw\n")
        #expect(keys.status == 0, "\(keys.stderr)")
        try Data((0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }).write(to: URL(fileURLWithPath: path("plain.bin")))
        #expect(try ParleyBinary.run(["file", "seal", "-r", path("me.pem"), path("plain.bin"), "-o", path("sealed.prly")]).status == 0)
        let sealed = try Data(contentsOf: URL(fileURLWithPath: path("sealed.prly")))
        #expect(mkfifo(path("pipe"), 0o600) == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()

        // The decryption reads from a pipe the test feeds: half the file, then it waits for more, mid-output.
        let process = Process()
        process.executableURL = ParleyBinary.productsDirectory.appendingPathComponent("parley")
        process.arguments = ["file", "open", "-i", path("me.ecp1"), path("pipe"), "-o", path("out.bin")]
        process.environment = ProcessInfo.processInfo.environment.merging(["PARLEY_PASSWORD": "key pw"]) { $1 }
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let feed = try #require(FileHandle(forWritingAtPath: path("pipe")))
        try feed.write(contentsOf: sealed.prefix(sealed.count / 2))
        // Killed only once it holds its output open and has written to it.
        let writing = Self.waitForOutput(of: process.processIdentifier, in: scratch.url.path)
        #expect(writing, "the decryption never opened its output")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? feed.close()

        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == before)
        #else
        // Without O_TMPFILE (macOS) the hidden file stays: nothing here to check.
        #endif
    }

    /// Whether `pid` comes to hold a file of `directory` open with bytes in it within ten seconds (`/proc/PID/fd`).
    static func waitForOutput(of pid: Int32, in directory: String) -> Bool {
        for _ in 0..<200 {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            for descriptor in descriptors {
                let link = "/proc/\(pid)/fd/\(descriptor)"
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link),
                      target.hasPrefix(directory), !target.hasSuffix("/pipe"), !target.hasSuffix(".ecp1")
                else { continue }
                var info = stat()
                if stat(link, &info) == 0, info.st_size > 0 { return true }
            }
            usleep(50_000)
        }
        return false
    }
}
