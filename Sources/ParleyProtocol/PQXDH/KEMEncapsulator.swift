import Crypto

/// ML-KEM-768 encapsulation, injectable because swift-crypto offers no seeded variant.
///
/// Production uses `SystemKEMEncapsulator`; known-answer tests pin a recorded (CT, SS).
public protocol KEMEncapsulator: Sendable {
    /// Encapsulates a fresh secret to `publicKey`, returning (ciphertext, shared secret).
    func encapsulate(to publicKey: MLKEM768.PublicKey) throws -> (ciphertext: [UInt8], sharedSecret: [UInt8])
}

/// swift-crypto's ML-KEM-768 encapsulation with system randomness.
public struct SystemKEMEncapsulator: KEMEncapsulator {
    /// Creates the encapsulator.
    public init() {}

    public func encapsulate(to publicKey: MLKEM768.PublicKey) throws -> (ciphertext: [UInt8], sharedSecret: [UInt8]) {
        let result = try publicKey.encapsulate()
        return (Array(result.encapsulated), result.sharedSecret.withUnsafeBytes { Array($0) })
    }
}
