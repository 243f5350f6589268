/// Which key store `parley pgp` uses: a standalone keyring directory when one is named (`--keyring` or
/// PARLEY_PGP_KEYRING); else the vault of the home's account (the one named, or the only one); else, in a home
/// without an account, the keyring directory `HOME/pgp`.
public enum PGPKeyStoreChoice: Equatable, Sendable {
    /// A keyring directory at this path.
    case keyring(String)
    /// The vault of the account with this e-mail.
    case vault(email: String)

    /// The store for these options: `keyring` given, the process `environment`, `account` given, the
    /// `accounts` in the home at `homePath`. A home with several accounts and none named is refused.
    public static func choose(keyring: String?, environment: [String: String], account: String?, accounts: [String],
                              homePath: String) throws -> PGPKeyStoreChoice {
        if let path = keyring ?? environment["PARLEY_PGP_KEYRING"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return .keyring(path)
        }
        if let account { return .vault(email: account.lowercased()) }
        switch accounts.count {
        case 0: return .keyring(homePath.hasSuffix("/") ? homePath + "pgp" : homePath + "/pgp")
        case 1: return .vault(email: accounts[0])
        default:
            throw PGPKeyStoreError("this home has several accounts (\(accounts.joined(separator: ", "))); pick one with --account, or use --keyring DIR")
        }
    }
}
