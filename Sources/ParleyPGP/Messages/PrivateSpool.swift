#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ParleyFiles

/// A scratch file for output that may reach standard output only after a check at its end (the MDC of a decrypted
/// message, a signature, a checksum): a `SealedScratch` (owner-only, unlinked at once, sealed under a key held only in
/// this process), written as a `PGPOutput`.
public final class PrivateSpool {
    private let scratch: SealedScratch
    private let sealing: ScratchOutput
    /// Where the held-back bytes are written.
    public var output: PGPOutput { sealing }

    /// Creates the file in the temporary directory (TMPDIR).
    public init() throws {
        do { scratch = try SealedScratch() } catch { throw PGPFiles.Failure(description: error.description) }
        sealing = ScratchOutput(scratch)
    }

    /// Copies everything written to `destination` (standard output, or a device or pipe named as the output),
    /// each chunk opened and checked before any of it goes out; nothing may be written to the spool afterwards.
    public func release(to destination: Int32 = STDOUT_FILENO) throws {
        // A failed copy is not the message's fault: said as a file failure, not as bad data.
        do { try scratch.release(to: destination) } catch { throw PGPFiles.Failure(description: error.description) }
    }

    /// Writes the last (short) chunk: nothing more may be written; `release` does it if it was not done.
    func sealLastChunk() throws {
        do { try scratch.finish() } catch { throw PGPFiles.Failure(description: error.description) }
    }

    /// Runs `body` writing into a new spool, then releases it to standard output only when `body` returned.
    public static func releasing<T>(to destination: Int32 = STDOUT_FILENO, _ body: (PGPOutput) throws -> T) throws -> T {
        let spool = try PrivateSpool()
        let result = try body(spool.output)
        try spool.release(to: destination)
        return result
    }
}

/// The spool's writing side, as the decryptor's stages write.
private final class ScratchOutput: PGPOutput {
    private let scratch: SealedScratch

    init(_ scratch: SealedScratch) {
        self.scratch = scratch
    }

    func write(_ bytes: [UInt8]) throws {
        try scratch.write(bytes)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try scratch.write(bytes)
    }
}
