#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streamed decryption and encryption between files: output appears at its path only complete and,
/// for decryption, only authenticated — it is written to a file without a name beside the target (`AtomicOutput`),
/// named after the MDC matched; a failure or a killed process leaves nothing.
public enum PGPFiles {
    /// Why a file could not be read or written (the OpenPGP errors stay `PGPError`).
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// What went wrong and what to do.
        public let description: String
    }

    /// Decrypts the file at `inputPath` into `outputPath` with `decryptor`.
    public static func decrypt(_ inputPath: String, to outputPath: String, with decryptor: Decryptor, replace: Bool = false) throws -> Decryptor.StreamResult {
        try withInput(inputPath) { input in
            try atomically(outputPath, replace: replace, mode: 0o600) { try decryptor.decrypt(from: input, to: $0) }
        }
    }

    /// Encrypts the file at `inputPath` into `outputPath` with `encryptor`, armored when asked.
    public static func encrypt(_ inputPath: String, to outputPath: String, with encryptor: Encryptor, filename: [UInt8] = [],
                               armor: Bool = false, replace: Bool = false) throws {
        try withInput(inputPath) { input in
            try atomically(outputPath, replace: replace, mode: 0o644) {
                try encryptor.encrypt(from: input, to: $0, filename: filename, armor: armor)
            }
        }
    }

    /// Runs `body` with the file at `path` open for reading.
    public static func withInput<T>(_ path: String, _ body: (PGPInput) throws -> T) throws -> T {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Failure(description: errno == ENOENT ? "\(path) does not exist: check the path" : "\(path) cannot be read: check its permissions")
        }
        defer { close(descriptor) }
        return try body(PGPFileInput(descriptor: descriptor))
    }

    /// Runs `body` writing into a file beside `path` that gets the name `path` only when `body` returns (`AtomicOutput`:
    /// without a name meanwhile, so a killed process leaves nothing; an existing file is replaced only when `replace`).
    public static func atomically<T>(_ path: String, replace: Bool, mode: Int, _ body: (PGPOutput) throws -> T) throws -> T {
        let output: AtomicOutput
        do throws(FilePathError) { output = try AtomicOutput(path: path, force: replace, mode: mode_t(mode)) } catch {
            throw Failure(description: error.description)
        }
        let result: T
        do {
            // Write-back starts as the file grows, so the fsync that makes the result durable before it
            // gets its name waits for the last few MiB only (it took 65-80 ms for 100 MiB at the end).
            result = try body(PGPFileOutput(descriptor: output.descriptor, writeBackEvery: 8 << 20))
        } catch {
            output.discard()
            throw error
        }
        do throws(FilePathError) { try output.commit() } catch { throw Failure(description: error.description) }
        return result
    }
}
