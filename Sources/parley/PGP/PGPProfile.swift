import ArgumentParser
import ParleyPGP

/// `--profile` of `parley pgp keys generate` and `parley pgp encrypt`: which OpenPGP generation to write, with
/// the names `parley sop list-profiles` uses (docs/PGP.md, "RFC 9580").
enum PGPProfile: String, ExpressibleByArgument, CaseIterable {
    /// RFC 4880: v4 keys and SEIPD v1, what GnuPG 2.2 reads.
    case rfc4880
    /// RFC 9580: v6 keys (Ed25519 + X25519, Argon2 + AES-OCB lock) and SEIPD v2 with AES-256-OCB.
    case rfc9580

    /// The encryptor's packet versions for this profile.
    var encryption: Encryptor.Profile {
        switch self {
        case .rfc4880: .rfc4880
        case .rfc9580: .rfc9580
        }
    }
}
