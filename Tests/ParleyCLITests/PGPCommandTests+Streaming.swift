import Foundation
import ParleyTestSupport
import Testing

extension PGPCommandTests {
    /// `parley pgp encrypt -o -` writes as it reads, as gpg and `parley sop encrypt` do: ciphertext reaches the
    /// pipe while the input is still open, and what came out decrypts to what went in.
    @Test func encryptToStandardOutputWritesAsItReads() async throws {
        _ = try await generate("Ada <ada@example.org>")
        let keyring = path("keyring")
        let first = Data((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let then = Data("and the end of it\n".utf8)
        let (early, whole) = try await Blocking.run {
            try EncryptThroughPipes.run(keyring: keyring, first: first, then: then)
        }
        #expect(early >= 64 << 10, "only \(early) bytes came out before the input ended")
        try whole.write(to: URL(fileURLWithPath: path("streamed.gpg")))
        let decrypted = try await pgp(["decrypt", "-o", "-", "--passphrase-file", path("pass"), path("streamed.gpg")])
        #expect(decrypted.status == 0, "\(decrypted.stderr)")
        #expect(decrypted.stdout == first + then)
    }
}

/// Feeds `parley pgp encrypt` through pipes in two parts and watches its output between them.
private enum EncryptThroughPipes {
    /// Writes `first`, waits up to 30 s for 64 KiB of output, then writes `then` and ends the input; returns
    /// what had come out before the input ended, and all of it.
    static func run(keyring: String, first: Data, then: Data) throws -> (early: Int, whole: Data) {
        let process = Process()
        process.executableURL = ParleyBinary.productsDirectory.appendingPathComponent("parley")
        process.arguments = ["pgp", "encrypt", "-r", "ada", "-o", "-", "--keyring", keyring, "-"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try ProcessLaunch.start(process)
        let collected = Collected()
        let reader = Thread { collected.drain(output.fileHandleForReading) }
        reader.start()
        try input.fileHandleForWriting.write(contentsOf: first)
        _ = collected.enough.wait(timeout: .now() + 30)
        let early = collected.count
        try input.fileHandleForWriting.write(contentsOf: then)
        try input.fileHandleForWriting.close()
        collected.finished.wait()
        process.waitUntilExit()
        return (early, collected.bytes)
    }

    /// What the reader thread has read; `enough` is signalled at 64 KiB, `finished` at the end of the output.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        private var signalled = false
        let enough = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)

        var count: Int { lock.withLock { data.count } }
        var bytes: Data { lock.withLock { data } }

        func drain(_ handle: FileHandle) {
            while case let chunk = handle.availableData, !chunk.isEmpty {
                let signal = lock.withLock { () -> Bool in
                    data += chunk
                    guard !signalled, data.count >= 64 << 10 else { return false }
                    signalled = true
                    return true
                }
                if signal { enough.signal() }
            }
            finished.signal()
        }
    }
}
