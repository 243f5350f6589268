import CArgon2

/// Argon2id as RFC 9580 §3.7.1.4 uses it, from the reference library (libargon2), with limits a stranger's
/// parameters must stay within: memory is what a hostile message or key would make the reader allocate.
public enum Argon2 {
    /// Largest memory exponent accepted: 2^21 KiB = 2 GiB, what RFC 9580's own samples ask for (A.5, A.12).
    public static let maxMemoryExponent: UInt8 = 21
    /// Most passes accepted (the RFC recommends 1 with 2 GiB, or 3 with 64 MiB).
    public static let maxPasses: UInt8 = 16
    /// Most lanes accepted (libargon2 starts a thread per lane).
    public static let maxParallelism: UInt8 = 64

    /// Checks parameters read from a packet; `.unsupported` says which limit they break, before any memory is taken.
    static func check(passes: UInt8, parallelism: UInt8, memoryExponent: UInt8) throws {
        guard passes >= 1, parallelism >= 1 else { throw PGPError.malformed("Argon2 with zero passes or lanes") }
        // RFC 9580: encoded_m must be at least 3 + ceil(log2(p)), and at most 31.
        let minimum = 3 + (parallelism > 1 ? UInt8(Int.bitWidth - (Int(parallelism) - 1).leadingZeroBitCount) : 0)
        guard memoryExponent >= minimum, memoryExponent <= 31 else { throw PGPError.malformed("Argon2 memory exponent out of range") }
        guard memoryExponent <= maxMemoryExponent else {
            throw PGPError.unsupported("Argon2 asking for 2^\(memoryExponent) KiB of memory (Parley allows up to 2 GiB)")
        }
        guard passes <= maxPasses else { throw PGPError.unsupported("Argon2 with \(passes) passes (Parley allows up to \(maxPasses))") }
        guard parallelism <= maxParallelism else {
            throw PGPError.unsupported("Argon2 with \(parallelism) lanes (Parley allows up to \(maxParallelism))")
        }
    }

    /// Argon2id (version 0x13) of `password` with `salt`, `length` bytes out.
    static func derive(password: [UInt8], salt: [UInt8], passes: UInt8, parallelism: UInt8, memoryExponent: UInt8,
                       length: Int) throws -> [UInt8] {
        try check(passes: passes, parallelism: parallelism, memoryExponent: memoryExponent)
        var out = [UInt8](repeating: 0, count: length)
        let status = argon2id_hash_raw(UInt32(passes), UInt32(1) << UInt32(memoryExponent), UInt32(parallelism),
                                       password, password.count, salt, salt.count, &out, length)
        guard status == Int32(ARGON2_OK.rawValue) else {
            throw PGPError.unsupported("Argon2 failed: \(String(cString: argon2_error_message(status)))")
        }
        return out
    }
}
