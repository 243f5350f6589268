import Foundation
import ParleyTestSupport
import Testing

/// `parley read | head -1`: the reader goes away after one line. The command ends as a pipe's writer does — quietly,
/// no backtrace — and what it did not get to show is still new for the next `read` (found by a probe: it crashed
/// in Foundation's write and four messages were marked seen without ever being shown).
@Suite("parley writing into a pipe that closes", .serialized, .offThePool)
struct BrokenPipeCommandTests {
    /// Runs `command` through `/bin/sh -c` with `parley` on the path; what the shell's pipeline printed, and the
    /// exit statuses of its parts (`PIPESTATUS` is bash's, so bash runs it).
    static func pipeline(_ command: String) throws -> (stdout: String, stderr: String, statuses: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command + "; echo \"statuses ${PIPESTATUS[*]}\" >&2"]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = ParleyBinary.productsDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errText = String(decoding: stderr, as: UTF8.self)
        let statuses = errText.components(separatedBy: "\n").last { $0.hasPrefix("statuses ") } ?? ""
        return (String(decoding: stdout, as: UTF8.self), errText, statuses)
    }

    @Test func aReaderThatStopsEarlyEndsTheCommandQuietlyAndLosesNothing() async throws {
        let scene = try await CLIScene.start("pipe", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob")
        #expect(try await scene.run(["send", "--home", bob.path, "--to", "ann@example.org", "hello"]).status == 0)
        try await CLIAccounts.accept(request: 1, home: ann)
        _ = try await scene.run(["read", "--home", ann.path])
        // Far more than a pipe holds (64 KiB), so `read` is still writing when `head` goes, however the two are
        // scheduled: five short messages, then four of about 50 KiB each.
        let texts = (1...255).map { "burst \($0) " + String(repeating: "x", count: 200) }
        for text in texts.prefix(5) {
            #expect(try await scene.run(["send", "--home", bob.path, "--to", "ann@example.org", text]).status == 0)
        }
        let bobText = texts.dropFirst(5).joined(separator: "\n")
        for _ in 0..<4 {
            #expect(try await ParleyBinary.runDetached(["send", "--home", bob.path, "--to", "ann@example.org", "-"], stdin: bobText).status == 0)
        }

        let cut = try await Blocking.run { try Self.pipeline("sleep 0.2 | parley read --home '\(ann.path)' | head -c 100 >/dev/null") }
        #expect(!cut.stderr.contains("Fatal error") && !cut.stderr.contains("Backtrace") && !cut.stderr.contains("Crash"), "\(cut.stderr)")
        let statuses = cut.statuses.split(separator: " ").dropFirst().map(String.init)
        #expect(statuses.count == 3 && ["0", "141"].contains(statuses[1]), "read ends as a pipe's writer: \(cut.statuses)")

        // Nothing the pipe did not take was marked seen: the next read shows every message of the burst.
        let again = try await scene.run(["read", "--home", ann.path])
        #expect(again.status == 0)
        for text in texts.prefix(5) { #expect(again.stdout.contains(text), "\(text.prefix(12)) is still new") }
        #expect(again.stdout.components(separatedBy: "burst 255 ").count == 5, "the four long ones too")
        #expect(try await scene.run(["read", "--home", ann.path]).stdout.contains("No new messages."))

        // Upload progress on standard error, into a pipe that closes: the same quiet end, not a trap (132/133).
        let file = scene.root.appendingPathComponent("three-mib.bin")
        try Data(repeating: 0x5A, count: 3 << 20).write(to: file)
        let upload = try await Blocking.run {
            try Self.pipeline("parley send --home '\(bob.path)' --to ann@example.org --file '\(file.path)' 2>&1 >/dev/null | head -c 1 >/dev/null")
        }
        let uploadStatuses = upload.statuses.split(separator: " ").dropFirst().map(String.init)
        #expect(uploadStatuses.count == 2 && ["0", "141"].contains(uploadStatuses[0]), "\(upload.statuses) \(upload.stderr)")
        try await scene.finish()
    }
}
