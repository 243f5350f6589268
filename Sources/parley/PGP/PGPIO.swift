import Foundation
import ParleyChatUI
import ParleyFiles
import ParleyPGP
import ParleyTerminal

/// Files and standard streams for `parley pgp`: '-' is standard input or output.
enum PGPIO {
    /// The whole of a small input (keys, signatures).
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" { return [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(FileManager.default.fileExists(atPath: path)
                                 ? "\(path) cannot be read: check its permissions" : "\(path) does not exist: check the path")
        }
        return [UInt8](data)
    }

    /// Writes a small output; a file appears complete or not at all.
    static func write(_ bytes: [UInt8], to path: String, mode: Int = 0o644, replace: Bool = true) throws {
        if path == "-" { return StandardStreams.write(bytes, to: STDOUT_FILENO) }
        try PGPFailure.run { try PGPFiles.atomically(path, replace: replace, mode: mode) { try $0.write(bytes) } }
    }

    /// Runs `body` with `path` open as a stream.
    static func withInput<T>(_ path: String, _ body: (PGPInput) throws -> T) throws -> T {
        if path == "-" { return try body(PGPFileInput(descriptor: STDIN_FILENO)) }
        return try PGPFailure.run { try PGPFiles.withInput(path, body) }
    }

    /// When standard output, a pipe or a device may have the bytes.
    enum Release {
        /// Only after `body` succeeded: output valid only once its end was checked (decrypted plaintext, a signed
        /// text) goes to a private, sealed spool first (`PrivateSpool`), so none of it reaches a pipe unchecked.
        case afterCheck
        /// As they are made: a message being made (ciphertext), as gpg and `parley sop encrypt` give it — a
        /// failure leaves a cut message, which no reader accepts, and the exit code says so.
        case asMade
    }

    /// Runs `body` writing to `path` ('-' is standard output): a file appears only when `body` succeeds
    /// (temporary file, then rename); standard output, a pipe or a device gets the bytes as `release` says.
    static func withOutput<T>(_ path: String, replace: Bool, mode: Int, release: Release = .afterCheck,
                              _ body: (PGPOutput) throws -> T) throws -> T {
        if path == "-" { return try PGPFailure.run { try write(to: STDOUT_FILENO, release, body) } }
        try OutputPlace.check(path, force: replace)
        guard OutputPlace(path) == .device else { return try PGPFailure.run { try PGPFiles.atomically(path, replace: replace, mode: mode, body) } }
        // A device or named pipe is written in place.
        guard let device = FileHandle(forWritingAtPath: path) else { throw CommandFailure("\(path): cannot be written (check its permissions)") }
        defer { try? device.close() }
        return try PGPFailure.run { try write(to: device.fileDescriptor, release, body) }
    }

    private static func write<T>(to descriptor: Int32, _ release: Release, _ body: (PGPOutput) throws -> T) throws -> T {
        switch release {
        case .afterCheck: try PrivateSpool.releasing(to: descriptor, body)
        case .asMade: try body(PGPFileOutput(descriptor: descriptor))
        }
    }

    /// Prints signature results on standard error; returns whether at least one signature is good.
    static func report(_ verifications: [Verification], certificates: [Certificate]) -> Bool {
        for verification in verifications { eprint(VerificationReport.line(verification, certificates: certificates)) }
        return verifications.contains(where: \.isGood)
    }

    /// An output that keeps nothing: `verify` without -o still streams the content through the hashes.
    final class Discard: PGPOutput {
        func write(_ bytes: [UInt8]) throws {}
    }

    static func eprint(_ line: String) {
        Console.err(line)
    }
}
