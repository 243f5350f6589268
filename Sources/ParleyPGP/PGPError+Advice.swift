extension PGPError {
    /// What the error means to a person using `parley pgp`, and what to do about it; `keyring` names where
    /// the secret keys were looked for.
    public func advice(keyring: String? = nil) -> String {
        let where_ = keyring.map { " (keyring \($0))" } ?? ""
        switch self {
        case .needsPassphrase:
            return "the secret key is protected: give its pass phrase with --passphrase-file, PARLEY_PGP_PASSPHRASE or at the prompt"
        case .wrongPassphrase:
            return "wrong pass phrase for the secret key: check it and try again"
        case .noMatchingKey:
            return "none of your secret keys\(where_) or passwords can decrypt this message: import the key it was encrypted to with `parley pgp keys import`, or use --password"
        case .missingMDC, .badMDC, .truncated:
            return "\(self); nothing was written. Ask the sender for a fresh copy"
        case .badArmor, .malformed:
            return "\(self): is this an OpenPGP file? Check you gave the right file"
        case .unsupported:
            return "\(self): ask the sender to use AES with an RSA, Ed25519/Cv25519 or P-256 key"
        case .badSignature:
            return "\(self)"
        case .unusableKey:
            return "\(self): choose another key, or check `parley pgp keys list`"
        case .notEncrypted:
            return "the message is not encrypted, so there is nothing to decrypt; nothing was written (to check a signed message use `parley pgp verify`)"
        case .trailingData:
            return "\(self). Check you gave exactly one message"
        }
    }
}
