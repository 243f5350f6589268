import Crypto

extension P256.KeyAgreement.PrivateKey {
    /// Creates a key from bytes drawn from `random`, so tests can make reproducible ephemeral keys.
    ///
    /// A 32-byte draw is outside the group order with probability about 2^-32; such draws are
    /// rejected and drawn again, which keeps the key uniformly distributed.
    public init(random: some RandomSource) {
        while true {
            if let key = try? Self(rawRepresentation: random.bytes(32)) {
                self = key
                return
            }
        }
    }
}
