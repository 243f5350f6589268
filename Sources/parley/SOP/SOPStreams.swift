import ArgumentParser
import Foundation
import ParleyPGP

/// Standard input and output as streams, so `parley sop` handles data of any size in constant memory.
extension SOPIO {
    /// Standard input, read a chunk at a time.
    static var standardInputStream: PGPInput { PGPFileInput(FileHandle.standardInput) }

    /// Runs `body` writing straight to standard output, for output that is right as soon as it is made
    /// (encrypting, signing). PGP errors exit with SOP's codes.
    static func streamOut(_ body: (PGPOutput) throws -> Void) throws {
        do {
            try body(PGPFileOutput(FileHandle.standardOutput))
        } catch let error as PGPStreamIOError {
            throw fail(badData, error.description)
        }
    }

    /// Runs `body` writing into a private, unlinked scratch file, and copies that to standard output only
    /// when `body` returned: output that is valid only once its end was checked (a decrypted message's
    /// MDC, a signature, a checksum) never reaches stdout in part. PGP errors exit with SOP's codes.
    /// `check` runs on the result before the release and may refuse it by throwing; `failure` maps the
    /// PGP errors (decryption's by default; for armor every error is bad data).
    static func streamChecked<T>(_ body: (PGPOutput) throws -> T, check: (T) throws -> Void = { _ in },
                                 failure: (PGPError) -> ExitCode = { fail($0) }) throws -> T {
        do {
            let spool = try PrivateSpool()
            let result = try body(spool.output)
            try check(result)
            try spool.release()
            return result
        } catch let error as PGPError {
            throw failure(error)
        } catch let error as PGPStreamIOError {
            throw fail(badData, error.description)
        }
    }

    /// Any PGP error as SOP's "bad data" (41): for commands that only read packets or armor.
    static func asBadData(_ error: PGPError) -> ExitCode { fail(badData, error.description) }
}
