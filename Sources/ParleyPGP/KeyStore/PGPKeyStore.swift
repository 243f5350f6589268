#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// Where `parley pgp` keeps keys: a standalone keyring directory (`PGPKeyring`) or the vault of a
/// Parley account (`PGPVaultKeys`, in the `parley` target since it needs ParleyClient). Secret keys are stored pass-phrase protected in both.
public protocol PGPKeyStore {
    /// Where the keys are, as users see it in messages.
    var location: String { get }

    /// Every certificate (public parts).
    func certificates() throws -> [Certificate]

    /// Every secret key.
    func secretKeys() throws -> [Certificate]

    /// Stores `certificate` (and its secret parts, which must be protected). Returns whether it was new.
    @discardableResult
    func store(_ certificate: Certificate) throws -> Bool
}

extension PGPKeyStore {
    /// Certificates matching `query`: a fingerprint, a key ID (16 hex digits, any subkey), or part of a user ID.
    public func find(_ query: String, in certificates: [Certificate]) throws -> [Certificate] {
        let hex = query.uppercased().replacingEvery(" ", with: "").replacingEvery("0X", with: "")
        let matches = certificates.filter { certificate in
            // A key ID is the fingerprint's last 8 bytes, so its hex is the fingerprint hex's last 16 digits.
            if certificate.allKeys.contains(where: { $0.fingerprintHex == hex || String($0.fingerprintHex.suffix(16)) == hex }) {
                return true
            }
            return certificate.userIDs.contains { $0.string.lowercased().contains(query.lowercased()) }
        }
        guard !matches.isEmpty else {
            throw PGPKeyStoreError("no key in \(location) matches \"\(query)\": see `parley pgp keys list`, or import it with `parley pgp keys import`")
        }
        return matches
    }

    /// Exactly one certificate matching `query`.
    public func one(_ query: String, in certificates: [Certificate]) throws -> Certificate {
        let matches = try find(query, in: certificates)
        guard matches.count == 1, let only = matches.first else {
            throw PGPKeyStoreError("\"\(query)\" matches \(matches.count) keys: give a fingerprint (see `parley pgp keys list`)")
        }
        return only
    }
}
