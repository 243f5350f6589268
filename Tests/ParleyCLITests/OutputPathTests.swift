import Foundation
import ParleyTestSupport
import Testing

/// `-o PATH` when PATH is not a regular file: a named pipe or a device is written in place, never replaced by a
/// regular file (writing `-o /dev/null --force` once put a regular file where the system's /dev/null was).
@Suite("Output paths that are not files", .offThePool)
struct OutputPathTests {
    let scratch: TemporaryDirectory

    init() throws { scratch = try TemporaryDirectory("parley-output") }

    func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }

    /// Reads everything written to the named pipe at `path` on another thread.
    final class PipeReader: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var bytes = Data()

        init(_ path: String) {
            Thread.detachNewThread { [self] in
                if let handle = FileHandle(forReadingAtPath: path) {
                    bytes = handle.readDataToEndOfFile()
                    try? handle.close()
                }
                done.signal()
            }
        }

        func result() -> Data? { done.wait(timeout: .now() + 60) == .success ? bytes : nil }
    }

    @Test("seal and open write through a named pipe, with or without --force, and leave it a pipe", arguments: [false, true])
    func namedPipe(force: Bool) throws {
        let keys = try ParleyBinary.run(
            ["file", "keygen", "--kind", "x25519", "-o", path("me.ecp1"), "--public", path("me.pem"), "--iterations", "210000",
             "--password-stdin"], stdin: "key pw\n")
        #expect(keys.status == 0, "\(keys.stderr)")
        let secret = String(repeating: "through the pipe. ", count: 5_000)
        try Data(secret.utf8).write(to: URL(fileURLWithPath: path("plain.txt")))
        #expect(mkfifo(path("pipe"), 0o600) == 0)

        let reader = PipeReader(path("pipe"))
        let seal = try ParleyBinary.run(["file", "seal", "-r", path("me.pem"), path("plain.txt"), "-o", path("pipe")] + (force ? ["--force"] : []))
        #expect(seal.status == 0, "\(seal.stderr)")
        let sealed = try #require(reader.result(), "nothing read from the pipe")
        #expect(sealed.prefix(8) == Data("PRLYFILE".utf8))
        var info = stat()
        #expect(stat(path("pipe"), &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the pipe was replaced")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: scratch.url.path))?.contains { $0.hasSuffix(".partial") } == false)

        try sealed.write(to: URL(fileURLWithPath: path("sealed.prly")))
        let openReader = PipeReader(path("pipe"))
        let open = try ParleyBinary.run(["file", "open", "-i", path("me.ecp1"), path("sealed.prly"), "-o", path("pipe")] + (force ? ["--force"] : []),
                                        environment: ["PARLEY_PASSWORD": "key pw"])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(openReader.result() == Data(secret.utf8))
        #expect(stat(path("pipe"), &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("/dev/null stays the character device it is")
    func devNull() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: path("plain.txt")))
        let seal = try ParleyBinary.run(["file", "seal", "--passphrase", "--password-stdin", "--work-factor", "14", "--lanes", "1", path("plain.txt"),
                                         "-o", "/dev/null"], stdin: "pass phrase\n")
        #expect(seal.status == 0, "\(seal.stderr)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "/dev/null is no longer a device")
    }

    @Test("a directory is refused in words, and nothing is left in it")
    func directory() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: path("plain.txt")))
        try FileManager.default.createDirectory(atPath: path("dir"), withIntermediateDirectories: false)
        let seal = try ParleyBinary.run(["file", "seal", "--passphrase", "--password-stdin", path("plain.txt"), "-o", path("dir"), "--force"],
                                        stdin: "pass phrase\n")
        #expect(seal.status != 0)
        #expect(seal.stderr.contains("is a directory"), "\(seal.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: path("dir")).isEmpty)
    }
}
