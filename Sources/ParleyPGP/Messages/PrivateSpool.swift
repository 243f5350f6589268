import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scratch file for output that may reach standard output only after a check at its end (the MDC of
/// a decrypted message, a signature, a checksum): created owner-only by mkstemp and unlinked at once,
/// so its bytes are never visible under a name and nothing is left behind, even if the process dies.
public final class PrivateSpool {
    private let descriptor: Int32
    /// Where the held-back bytes are written.
    public let output: PGPOutput

    /// Creates the file in the temporary directory (TMPDIR).
    public init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/parley-spool-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw PGPFiles.Failure(description: "cannot create a temporary file in \(FileManager.default.temporaryDirectory.path): check TMPDIR is writable")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
        output = PGPFileOutput(FileHandle(fileDescriptor: descriptor, closeOnDealloc: false))
    }

    deinit { close(descriptor) }

    /// Copies everything written so far to `destination` (standard output, or a device or pipe named as the output).
    public func release(to destination: FileHandle = .standardOutput) throws {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw PGPFiles.Failure(description: "lost the temporary output: could not rewind it") }
        let input = PGPFileInput(FileHandle(fileDescriptor: descriptor, closeOnDealloc: false))
        let standardOutput = PGPFileOutput(destination)
        do {
            while true {
                let chunk = try input.read(upTo: PrivateSpool.copyChunk)
                if chunk.isEmpty { break }
                try standardOutput.write(chunk)
            }
        } catch let error as PGPStreamIOError {
            // A failed copy is not the message's fault: said as a file failure, not as bad data.
            throw PGPFiles.Failure(description: error.description)
        }
    }

    /// Runs `body` writing into a new spool, then releases it to standard output only when `body` returned.
    public static func releasing<T>(to destination: FileHandle = .standardOutput, _ body: (PGPOutput) throws -> T) throws -> T {
        let spool = try PrivateSpool()
        let result = try body(spool.output)
        try spool.release(to: destination)
        return result
    }

    private static let copyChunk = 1 << 18
}
