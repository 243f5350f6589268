/// The profiles `sop` offers, by subcommand: only what ParleyPGP really makes — v4 keys and SEIPD v1
/// (RFC 4880, which GnuPG 2.2 reads), or v6 keys and SEIPD v2 (`rfc9580`). The first profile of a subcommand is
/// its default; `encrypt` without `--profile` writes what each recipient's key calls for (docs/PGP.md).
public enum SOPProfiles {
    /// A profile's name and the line `list-profiles` prints for it.
    public struct Profile: Equatable, Sendable {
        /// The name given to `--profile`.
        public let name: String
        /// What it makes, in a line.
        public let description: String
    }

    /// Every subcommand's profiles, the default first.
    public static let bySubcommand: [String: [Profile]] = [
        "generate-key": [
            Profile(name: "default", description: "Ed25519 primary key with a Cv25519 encryption subkey, v4 (what GnuPG 2.2 makes)"),
            Profile(name: "rfc4880", description: "RSA-3072 primary key with an RSA-3072 encryption subkey, v4, RFC 4880 algorithms only"),
            Profile(name: "rfc9580", description: "v6 Ed25519 primary key with an X25519 encryption subkey, locked with Argon2 and AES-OCB"),
        ],
        "encrypt": [
            Profile(name: "rfc4880", description: "SEIPD v1 with MDC, AES-256, v3 PKESK and v4 SKESK (what GnuPG 2.2 reads)"),
            Profile(name: "rfc9580", description: "SEIPD v2, AES-256-OCB, v6 PKESK and v6 SKESK (Argon2)"),
        ],
    ]

    /// The profiles of `subcommand`, for `list-profiles`; a subcommand without any is 89.
    public static func profiles(of subcommand: String) throws -> [Profile] {
        guard let profiles = bySubcommand[subcommand] else {
            throw SOPFailure(.unsupportedProfile, "\(subcommand) has no profiles (only generate-key and encrypt have)")
        }
        return profiles
    }

    /// The profile `name` selects for `subcommand` (`default` is the first), or SOP's 89.
    public static func profile(_ name: String, for subcommand: String) throws -> Profile {
        let profiles = bySubcommand[subcommand] ?? []
        if name == "default", let first = profiles.first { return first }
        guard let profile = profiles.first(where: { $0.name == name }) else {
            throw SOPFailure(.unsupportedProfile, "\(subcommand) has no profile \(name); `parley sop list-profiles \(subcommand)` lists them")
        }
        return profile
    }

    /// The encryptor's packet versions for `encrypt --profile name`: without one (`default`), as each
    /// recipient's key calls for.
    public static func encryption(_ name: String) throws -> Encryptor.Profile {
        let chosen = try profile(name, for: "encrypt")
        return name == "default" ? .byRecipients : chosen.name == "rfc9580" ? .rfc9580 : .rfc4880
    }
}
