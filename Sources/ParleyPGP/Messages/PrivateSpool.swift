import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scratch file for output that may reach standard output only after a check at its end (the MDC of
/// a decrypted message, a signature, a checksum): created owner-only by mkstemp and unlinked at once,
/// so its bytes are never visible under a name and nothing is left behind, even if the process dies; and
/// what it holds is sealed under a key that lives only in this process (`SpoolCipher`).
public final class PrivateSpool {
    private let descriptor: Int32
    private let cipher = SpoolCipher()
    private let sealing: SealingSpoolOutput
    /// Where the held-back bytes are written.
    public var output: PGPOutput { sealing }

    /// Creates the file in the temporary directory (TMPDIR).
    public init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/parley-spool-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw PGPFiles.Failure(description: "cannot create a temporary file in \(FileManager.default.temporaryDirectory.path): check TMPDIR is writable")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
        sealing = SealingSpoolOutput(file: PGPFileOutput(FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)), cipher: cipher)
    }

    deinit { close(descriptor) }

    /// Copies everything written to `destination` (standard output, or a device or pipe named as the output),
    /// each chunk opened and checked before any of it goes out; nothing may be written to the spool afterwards.
    public func release(to destination: FileHandle = .standardOutput) throws {
        try sealLastChunk()
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw PGPFiles.Failure(description: "lost the temporary output: could not rewind it") }
        let input = PGPFileInput(FileHandle(fileDescriptor: descriptor, closeOnDealloc: false))
        let standardOutput = PGPFileOutput(destination)
        var plain = [UInt8](repeating: 0, count: SpoolCipher.chunkSize)
        var number: UInt64 = 0
        do {
            while true {
                let sealed = try input.read(upTo: SpoolCipher.chunkSize + SpoolCipher.tagLength)
                // Only the last chunk is shorter than a whole one.
                let last = sealed.count < SpoolCipher.chunkSize + SpoolCipher.tagLength
                let length = sealed.withUnsafeBytes { sealed in
                    plain.withUnsafeMutableBytes { cipher.open(sealed, number: number, last: last, into: $0) }
                }
                guard let length else { throw Self.altered }
                try plain.withUnsafeBytes { try standardOutput.write(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
                number += 1
                if last { break }
            }
        } catch let error as PGPStreamIOError {
            // A failed copy is not the message's fault: said as a file failure, not as bad data.
            throw PGPFiles.Failure(description: error.description)
        }
        guard try input.read(upTo: 1).isEmpty else { throw Self.altered }
    }

    /// Writes the last (short) chunk: nothing more may be written; `release` does it if it was not done.
    func sealLastChunk() throws {
        try sealing.finish()
    }

    private static let altered = PGPFiles.Failure(
        description: "the temporary output in TMPDIR was changed while parley ran (by another program?); check TMPDIR and run the command again")

    /// Runs `body` writing into a new spool, then releases it to standard output only when `body` returned.
    public static func releasing<T>(to destination: FileHandle = .standardOutput, _ body: (PGPOutput) throws -> T) throws -> T {
        let spool = try PrivateSpool()
        let result = try body(spool.output)
        try spool.release(to: destination)
        return result
    }
}
