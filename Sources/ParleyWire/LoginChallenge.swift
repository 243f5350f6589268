import Foundation

/// The bytes a device signs to log in: `"Parley-login-v1" || nonce || email (UTF-8) || deviceId (u32 BE)`.
///
/// The nonce is fixed-length and the device id fixed-width at the end, so the concatenation is
/// unambiguous. Shared by server (verify) and client (sign).
public enum LoginChallenge {
    /// The domain-separation prefix.
    public static let prefix: [UInt8] = Array("Parley-login-v1".utf8)
    /// Length of the server's nonce.
    public static let nonceLength = 32

    /// The message to sign for `nonce`, `email` and `deviceID`. The address is taken in Unicode NFC, the one
    /// spelling the server keeps, so a client that holds another spelling still signs what the server checks.
    public static func message(nonce: [UInt8], email: String, deviceID: UInt32) -> [UInt8] {
        prefix + nonce + Array(email.precomposedStringWithCanonicalMapping.utf8) + withUnsafeBytes(of: deviceID.bigEndian) { Array($0) }
    }
}
