import CSodium

/// Zeroing secrets once used (a PIN, a shared secret, a raw key), with libsodium's `sodium_memzero`, which the
/// compiler may not optimise away. Best effort: copies Swift made elsewhere are out of reach.
public enum SecureZero {
    /// Zeroes every byte of `bytes`.
    public static func bytes(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
        }
    }

    /// Zeroes the memory of `value` (a C structure holding a secret).
    public static func value<T>(_ value: inout T) {
        withUnsafeMutableBytes(of: &value) { buffer in
            if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
        }
    }
}
