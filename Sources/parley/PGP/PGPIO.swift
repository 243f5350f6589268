import Foundation
import ParleyFiles
import ParleyPGP

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
        if path == "-" { return FileHandle.standardOutput.write(Data(bytes)) }
        try PGPFailure.run { try PGPFiles.atomically(path, replace: replace, mode: mode) { try $0.write(bytes) } }
    }

    /// Runs `body` with `path` open as a stream.
    static func withInput<T>(_ path: String, _ body: (PGPInput) throws -> T) throws -> T {
        if path == "-" { return try body(PGPFileInput(FileHandle.standardInput)) }
        return try PGPFailure.run { try PGPFiles.withInput(path, body) }
    }

    /// Runs `body` writing to `path`: a file appears only when `body` succeeds (temporary file, then rename);
    /// for standard output the bytes go to a private, unlinked temporary file first and are copied out
    /// only after success, so unauthenticated plaintext never reaches a pipe.
    static func withOutput<T>(_ path: String, replace: Bool, mode: Int, _ body: (PGPOutput) throws -> T) throws -> T {
        if path == "-" { return try PGPFailure.run { try PrivateSpool.releasing(to: .standardOutput, body) } }
        try OutputPlace.check(path, force: replace)
        guard OutputPlace(path) == .device else { return try PGPFailure.run { try PGPFiles.atomically(path, replace: replace, mode: mode, body) } }
        // A device or named pipe is written in place, and like standard output only once the message checked out.
        guard let device = FileHandle(forWritingAtPath: path) else { throw CommandFailure("\(path): cannot be written (check its permissions)") }
        defer { try? device.close() }
        return try PGPFailure.run { try PrivateSpool.releasing(to: device, body) }
    }

    /// Runs `body` writing a message it makes (ciphertext) to `path` as it is made: standard output, a device
    /// or a pipe gets the bytes at once, as gpg and `parley sop encrypt` give them — a failure leaves a cut
    /// message there, which no reader accepts, and the exit code says so; a file appears only when `body` succeeds.
    static func withStreamedOutput<T>(_ path: String, replace: Bool, mode: Int, _ body: (PGPOutput) throws -> T) throws -> T {
        if path == "-" { return try PGPFailure.run { try body(PGPFileOutput(.standardOutput)) } }
        try OutputPlace.check(path, force: replace)
        guard OutputPlace(path) == .device else { return try PGPFailure.run { try PGPFiles.atomically(path, replace: replace, mode: mode, body) } }
        guard let device = FileHandle(forWritingAtPath: path) else { throw CommandFailure("\(path): cannot be written (check its permissions)") }
        defer { try? device.close() }
        return try PGPFailure.run { try body(PGPFileOutput(device)) }
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
