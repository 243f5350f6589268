import Foundation
import ParleyImage
import ParleyServer
import ParleyTestSupport
import Testing

/// `parley send --file`, `parley read` and `parley download` as a user runs them.
@Suite("parley send --file / read / download", .serialized, .offThePool)
struct FileMessageCommandTests {
    let environment = ["PARLEY_PASSWORD": "a long enough password"]

    func register(_ name: String, home: URL, server: EmbeddedServer) async throws {
        try await CLIAccounts.register(name, home: home, server: server)
    }

    @Test func aFileTravelsFromSendThroughReadToDownload() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        try await register("ann", home: ann, server: server)
        try await register("bob", home: bob, server: server)
        let original = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let source = root.appendingPathComponent("minutes.pdf")
        try (Data("%PDF-1.7\n".utf8) + original).write(to: source)

        let sent = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "--file", source.path, "minutes"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains("Sent message 1 to conversation 1."))
        #expect(sent.stderr.contains("uploading minutes.pdf:") && sent.stderr.contains("(100%)"), "\(sent.stderr)")

        try await CLIAccounts.accept(request: 1, home: bob)
        let read = try await ParleyBinary.runDetached(["read", "--home", bob.path])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("minutes [file] minutes.pdf (68.4 KiB, application/pdf) — parley download 1 -o PATH"), "\(read.stdout)")
        let json = try await ParleyBinary.runDetached(["read", "--home", bob.path, "--conversation", "1", "--json"])
        #expect(json.stdout.contains(#""mime":"application/pdf""#), "\(json.stdout)")
        #expect(!json.stdout.contains(#""key""#) && !json.stdout.contains(#""sha256""#), "file keys must not be printed")

        let target = root.appendingPathComponent("copy.pdf")
        let downloaded = try await ParleyBinary.runDetached(["download", "--home", bob.path, "1", "-o", target.path])
        #expect(downloaded.status == 0, "\(downloaded.stderr)")
        #expect(downloaded.stdout.contains("Wrote minutes.pdf (68.4 KiB, application/pdf)"))
        #expect(try Data(contentsOf: target) == (try Data(contentsOf: source)))
        let again = try await ParleyBinary.runDetached(["download", "--home", bob.path, "1", "-o", target.path])
        #expect(again.status == 1 && again.stderr.contains("pass --force"))

        // '-o -': the bytes on standard output (after every check), what was written on standard error; never to a terminal.
        let piped = try await Blocking.run { try ParleyBinary.runBinary(["download", "--home", bob.path, "1", "-o", "-"], stdin: Data()) }
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == (try Data(contentsOf: source)))
        #expect(piped.stderr.contains("Wrote minutes.pdf (68.4 KiB, application/pdf) to standard output"), "\(piped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/-"), "no file named '-'")
        let parley = ParleyBinary.productsDirectory.appendingPathComponent("parley").path
        let terminal = try await Blocking.run { try Self.inTerminal("\(parley) download --home \(bob.path) 1 -o -") }
        #expect(terminal.status != 0 && terminal.output.contains("standard output is a terminal"), "\(terminal.output)")
        #expect(!terminal.output.contains("%PDF"), "not one byte of the file reached the terminal")

        var pixels = [UInt8](repeating: 60, count: 480 * 320 * 3)
        for i in 0..<(480 * 320) { pixels[i * 3] = UInt8(i % 480 / 2) }
        let photo = root.appendingPathComponent("crag.jpg")
        try Data(try ImageCodec.encodeJPEG(try #require(RGBImage(width: 480, height: 320, pixels: pixels)))).write(to: photo)
        let image = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--conversation", "1", "--file", photo.path])
        #expect(image.status == 0, "\(image.stderr)")
        let imageLine = try await ParleyBinary.runDetached(["read", "--home", bob.path])
        #expect(imageLine.stdout.contains("[image crag.jpg] (480×320, "), "\(imageLine.stdout)")
        #expect(imageLine.stdout.contains(", image/jpeg) (thumbnail ") && imageLine.stdout.contains("— parley download 2 -o PATH"))
        let forwarded = try await ParleyBinary.runDetached(["forward", "--home", bob.path, "2", "--conversation", "1"])
        #expect(forwarded.status != 0 && forwarded.stderr.contains("a file cannot be forwarded"), "\(forwarded.stderr)")

        let avatar = try await ParleyBinary.runDetached(["profile", "set", "--home", ann.path, "--avatar", photo.path])
        #expect(avatar.status == 0 && avatar.stdout == "Profile updated.\n", "\(avatar.stderr)")
        #expect(try await ParleyBinary.runDetached(["read", "--home", bob.path]).stdout.contains("(new picture)"))
        let picturePath = root.appendingPathComponent("ann-avatar.jpg")
        let picture = try await ParleyBinary.runDetached(["profile", "avatar", "--home", bob.path, "1", "-o", picturePath.path])
        #expect(picture.status == 0 && picture.stdout.contains("Wrote the picture"), "\(picture.stderr)")
        let decoded = try ImageCodec.decode(Array(try Data(contentsOf: picturePath)))
        #expect(decoded.width == 256 && decoded.height == 170)

        let tooBig = try await ParleyBinary.runDetached(
            ["send", "--home", ann.path, "--conversation", "1", "--file", source.path, "--max-size", "0"])
        #expect(tooBig.status == 1 && tooBig.stderr.contains("--max-size: give a number of MiB from 1"), "\(tooBig.stderr)")
        let noFile = try await ParleyBinary.runDetached(["download", "--home", bob.path, "99", "-o", root.appendingPathComponent("x").path])
        #expect(noFile.status == 1 && noFile.stderr.contains("not in this device's history"), "\(noFile.stderr)")
        let nothing = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--conversation", "1"])
        #expect(nothing.status == 64 && nothing.stderr.contains("--file PATH"))
        try await server.stop()
    }

    /// Runs a shell command line with its standard output on a terminal (util-linux `script`); what the terminal showed.
    static func inTerminal(_ command: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let shown = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: shown, as: UTF8.self))
    }
}
