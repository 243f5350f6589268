import ArgumentParser
import ParleyPGP

/// Reading KEYS and CERTS from standard input, and SOP's codes for the key-maintenance errors.
extension SOPIO {
    /// The keys or certificates on standard input. `secret` demands secret keys (KEYS), refusing a
    /// certificate with 41 as SOP's BAD_DATA; otherwise secret keys are refused (CERTS), since
    /// printing a secret where a certificate was expected would leak it into the output.
    static func standardInputCertificates(secret: Bool) throws -> [Certificate] {
        let certificates: [Certificate]
        do {
            certificates = try Certificate.readAll(standardInput())
        } catch let error as PGPError {
            throw fail(badData, "standard input: \(error)")
        }
        guard !certificates.isEmpty else { throw fail(badData, "no \(secret ? "secret key" : "certificate") on standard input") }
        if secret, let certificate = certificates.first(where: { !$0.isSecret }) {
            throw fail(badData, "\(Fingerprint.text(certificate.fingerprint)) on standard input is a certificate; a secret key is needed")
        }
        if !secret, let key = certificates.first(where: \.isSecret) {
            throw fail(badData, "\(Fingerprint.text(key.fingerprint)) on standard input is a secret key; give its certificate (extract-cert)")
        }
        return certificates
    }

    /// Secret keys from files named on the command line (KEYS): a certificate is 41.
    static func secretKeys(_ names: [String]) throws -> [Certificate] {
        let keys = try certificates(names)
        if let certificate = keys.first(where: { !$0.isSecret }) {
            throw fail(badData, "\(Fingerprint.text(certificate.fingerprint)) is a certificate; a secret key is needed")
        }
        return keys
    }

    /// Writes keys or certificates, armored unless `--no-armor`.
    static func output(_ certificates: [Certificate], armor: Bool) {
        let secret = certificates.contains(where: \.isSecret)
        output(certificates.flatMap(\.packets).encoded, armor: armor, kind: secret ? .privateKey : .publicKey)
    }

    /// Runs `body`, turning key errors into SOP's exit codes: a pass phrase missing or wrong is 67, a key
    /// that cannot certify 109, a user ID not bound 107, anything else unreadable 41.
    static func maintaining<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as KeyMaintenanceError {
            switch error {
            case .keyCannotCertify: throw fail(keyCannotCertify, error.description)
            case .userIDNotFound: throw fail(certUserIDNoMatch, error.description)
            }
        } catch let error as PGPError {
            switch error {
            case .needsPassphrase, .wrongPassphrase: throw fail(keyIsProtected, error.description)
            default: throw fail(badData, error.description)
            }
        }
    }
}
