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

/// Where SOP's streamed output goes: straight out for output that is right as soon as it is made (encrypting,
/// signing), or held in a `PrivateSpool` until its end was checked (a decrypted message's MDC, a signature, a
/// checksum), so it never reaches standard output in part. Standard input is read a chunk at a time, so data
/// of any size takes constant memory.
public enum SOPStreams {
    /// Standard input, read a chunk at a time.
    public static var standardInput: PGPInput { PGPFileInput(descriptor: STDIN_FILENO) }

    /// Runs `body` writing straight to `destination`; OpenPGP errors become SOP's by `classify`.
    public static func direct<T>(to destination: Int32 = STDOUT_FILENO, classify: (PGPError) -> SOPFailure = { SOPFailure($0) },
                                 _ body: (PGPOutput) throws -> T) throws -> T {
        try SOPFailure.mapping(classify) { try body(PGPFileOutput(descriptor: destination)) }
    }

    /// Runs `body` writing into a private, unlinked scratch file, and copies that to `destination` only when
    /// `body` returned and `check` accepted its result. OpenPGP errors become SOP's by `classify` (decryption's
    /// by default; for armor every error is bad data).
    public static func checked<T>(to destination: Int32 = STDOUT_FILENO, _ body: (PGPOutput) throws -> T,
                                  check: (T) throws -> Void = { _ in },
                                  classify: (PGPError) -> SOPFailure = { SOPFailure($0) }) throws -> T {
        try SOPFailure.mapping(classify) {
            let spool = try PrivateSpool()
            let result = try body(spool.output)
            try check(result)
            try spool.release(to: destination)
            return result
        }
    }
}
