import Foundation
import Testing

extension PGPCommandTests {
    @Test("decrypt -o a named pipe: the plaintext goes in only after the message checked out, and the pipe stays a pipe")
    func decryptIntoPipe() async throws {
        _ = try await generate("Ada <ada@example.org>")
        let text = String(repeating: "through the pipe\n", count: 3_000)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path("plain.txt")))
        #expect(try await pgp(["encrypt", "-r", "ada", "-o", path("msg.gpg"), path("plain.txt")]).status == 0)
        #expect(mkfifo(path("pipe"), 0o600) == 0)

        let reader = OutputPathTests.PipeReader(path("pipe"))
        let result = try await pgp(["decrypt", "-o", path("pipe"), "--force", "--passphrase-file", path("pass"), path("msg.gpg")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(reader.result() == Data(text.utf8))
        var info = stat()
        #expect(stat(path("pipe"), &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the pipe was replaced")

        // A flipped bit in the last byte (inside the MDC or the tag): nothing at all reaches the pipe.
        var tampered = try read("msg.gpg")
        tampered[tampered.count - 1] ^= 0x01
        try tampered.write(to: URL(fileURLWithPath: path("bad.gpg")))
        let badReader = OutputPathTests.PipeReader(path("pipe"))
        let refused = try await pgp(["decrypt", "-o", path("pipe"), "--passphrase-file", path("pass"), path("bad.gpg")])
        #expect(refused.status != 0)
        #expect(badReader.result() == Data(), "unauthenticated plaintext reached the pipe")
    }
}
