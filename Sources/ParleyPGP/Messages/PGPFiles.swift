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

/// Streamed decryption and encryption between files: output appears at its path only complete and,
/// for decryption, only authenticated — it is written to a temporary file beside the target and
/// renamed into place after the MDC matched, and deleted on any failure.
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

    /// Runs `body` writing into a temporary file beside `path`, renamed to `path` only when `body` returns.
    public static func atomically<T>(_ path: String, replace: Bool, mode: Int, _ body: (PGPOutput) throws -> T) throws -> T {
        let manager = FileManager.default
        if !replace, manager.fileExists(atPath: path) {
            throw Failure(description: "\(path) already exists: choose another path or replace it explicitly")
        }
        let target = URL(fileURLWithPath: path)
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).partial")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
        guard descriptor >= 0 else {
            throw Failure(description: "cannot write in \(target.deletingLastPathComponent().path): check the directory exists and is writable")
        }
        do {
            // Write-back starts as the file grows, so the fsync that makes the result durable before it
            // gets its name waits for the last few MiB only (it took 65-80 ms for 100 MiB at the end).
            let result = try body(PGPFileOutput(descriptor: descriptor, writeBackEvery: 8 << 20))
            guard fsync(descriptor) == 0 else {
                throw Failure(description: "\(path) could not be written to the disk: \(String(cString: strerror(errno)))")
            }
            close(descriptor)
            if replace {
                guard rename(temporary.path, path) == 0 else { throw Failure(description: "\(path) cannot be replaced: check its permissions") }
            } else {
                // link fails if the path appeared meanwhile, so an existing file is never replaced.
                let linked = link(temporary.path, path)
                unlink(temporary.path)
                guard linked == 0 else { throw Failure(description: "\(path) cannot be created: it exists now, or the directory is not writable") }
            }
            return result
        } catch {
            close(descriptor)
            unlink(temporary.path)
            throw error
        }
    }
}
