import ArgumentParser

/// The profiles `parley sop` offers, by subcommand: only what ParleyPGP really makes — v4 keys and SEIPD v1
/// (RFC 4880, which GnuPG 2.2 reads), or v6 keys and SEIPD v2 (`rfc9580`). The first profile of a subcommand is
/// its default; `encrypt` without `--profile` writes what each recipient's key calls for (docs/PGP.md).
enum SOPProfiles {
    /// A profile's name and the line `list-profiles` prints for it.
    struct Profile {
        let name: String
        let description: String
    }

    static let bySubcommand: [String: [Profile]] = [
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

    /// The profile `name` selects for `subcommand` (`default` is the first), or SOP's 89.
    static func profile(_ name: String, for subcommand: String) throws -> Profile {
        let profiles = bySubcommand[subcommand] ?? []
        if name == "default", let first = profiles.first { return first }
        guard let profile = profiles.first(where: { $0.name == name }) else {
            throw SOPIO.fail(SOPIO.unsupportedProfile, "\(subcommand) has no profile \(name); `parley sop list-profiles \(subcommand)` lists them")
        }
        return profile
    }
}

extension Parley.SOP {
    /// `sop list-profiles`.
    struct ListProfiles: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list-profiles", abstract: "List the profiles a subcommand offers (the first is its default).")
        @Argument(help: "generate-key or encrypt.") var subcommand: String

        func run() throws {
            guard let profiles = SOPProfiles.bySubcommand[subcommand] else {
                throw SOPIO.fail(SOPIO.unsupportedProfile, "\(subcommand) has no profiles (only generate-key and encrypt have)")
            }
            for profile in profiles { print("\(profile.name): \(profile.description)") }
        }
    }
}
