import ParleyClient
import ParleyPGP
import ParleyCrypto
import ParleyTerminal

/// `parley pgp` keys inside a Parley account's vault: one sealed record per fingerprint holding the
/// armored certificate, its secret parts (if any) still protected by their pass phrase.
struct PGPVaultKeys: PGPKeyStore {
    let client: ParleyClient

    var location: String { "the vault of \(client.email)" }

    func certificates() throws -> [Certificate] { try stored().map(\.publicCertificate) }

    func secretKeys() throws -> [Certificate] { try stored().filter(\.isSecret) }

    @discardableResult
    func store(_ certificate: Certificate) throws -> Bool {
        // Pass phrases are never stored, and neither are unprotected secrets.
        if certificate.isSecret, !certificate.isFullyProtected {
            throw CommandFailure("refusing to store an unprotected secret key")
        }
        let fingerprint = Hex.upper(certificate.fingerprint)
        let existing = try stored().first { Hex.upper($0.fingerprint) == fingerprint }
        // A certificate without secret parts never replaces the secret key of the same fingerprint.
        if let existing, existing.isSecret, !certificate.isSecret { return false }
        do {
            try client.pgpVault.store(fingerprint: fingerprint, bytes: Array(certificate.armored.utf8))
        } catch {
            throw CommandFailure("cannot store the key in \(location): \(error)")
        }
        return existing == nil
    }

    private func stored() throws -> [Certificate] {
        let records: [(fingerprint: String, bytes: [UInt8])]
        do {
            records = try client.pgpVault.all()
        } catch {
            throw CommandFailure("cannot read the keys in \(location): \(error)")
        }
        return try records.flatMap { record -> [Certificate] in
            do {
                return try Certificate.readAll(record.bytes)
            } catch {
                throw CommandFailure("the key \(record.fingerprint) in \(location) is damaged (\(error))")
            }
        }
    }
}
