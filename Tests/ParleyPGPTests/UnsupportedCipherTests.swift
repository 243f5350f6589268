import Foundation
import Testing
@testable import ParleyPGP

/// A message encrypted to the reader's own key with a cipher Parley does not implement (GnuPG's
/// `--cipher-algo CAMELLIA256` or `CAST5`) names that cipher, in the decryptor and in the mail reader; it is not
/// "encrypted to a key you do not have".
@Suite(.serialized) struct UnsupportedCipherTests {
    @Test(arguments: [("CAMELLIA256", "Camellia-256"), ("CAST5", "CAST5")])
    func theCipherIsNamedNotTheKey(gpgName: String, parleyName: String) async throws {
        let gpg = try GPG()
        try await gpg(["--import"], input: Fixtures.bytes("ed.sec.asc"))
        try await gpg(["--import"], input: Fixtures.bytes("rsa.sec.asc"))
        for fixture in ["ed", "rsa"] {
            let recipient = try Fixtures.text("\(fixture).fpr")
            let message = try await gpg(["--encrypt", "--cipher-algo", gpgName, "-r", recipient, "-o", "-"], input: Array("old cipher\n".utf8))
            var decryptor = Decryptor(now: Fixtures.now)
            decryptor.keys = [try Fixtures.certificate("\(fixture).sec.asc")]
            decryptor.keyPassphrases = [Fixtures.passphrase]
            #expect(throws: PGPError.unsupported("symmetric cipher \(parleyName)"), "\(fixture) key, \(gpgName)") { try decryptor.decrypt(message) }
            // The mail reader (its own session-key pass) names it too, for the encrypted part alone.
            let eml = Array("Subject: old\r\nContent-Type: application/octet-stream; name=\"note.pgp\"\r\nContent-Transfer-Encoding: base64\r\n\r\n".utf8)
                + Array(Data(message).base64EncodedString(options: .lineLength76Characters).utf8) + Array("\r\n".utf8)
            let mail = try MailReader.read(eml: eml, keys: decryptor.keys, passphrases: decryptor.keyPassphrases, verifyWith: [], now: Fixtures.now)
            #expect(mail.blocks.first == .error(.unsupported("symmetric cipher \(parleyName)")), "\(fixture) key, \(gpgName): \(mail.blocks)")
            // Without the key, it still is a key Parley does not have.
            decryptor.keys = []
            #expect(throws: PGPError.noMatchingKey) { try decryptor.decrypt(message) }
        }
    }
}
