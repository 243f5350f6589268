import Foundation
import Testing
@testable import ParleyPGP

@Suite(.serialized) struct CleartextSignatureTests {
    static let text = "Dear Bob,\n- dashes at the start   \nand trailing spaces\t \n\nFrom Alice"

    @Test func gpgClearsignedTextVerifies() async throws {
        let gpg = try GPG()
        try await gpg(["--quick-gen-key", "Clear <clear@example.org>", "future-default", "default", "never"])
        let fpr = try await gpg.fingerprint("clear@example.org")
        let cert = try #require(await Certificate.readAll(gpg(["--export", fpr])).first)
        let signed = String(decoding: try await gpg(["--clearsign", "-u", fpr], input: Array((Self.text + "\n").utf8)), as: UTF8.self)
        let now = UInt32(Date().timeIntervalSince1970) + 3600  // later than every signature the test makes
        let (text, verifications) = try CleartextSignature.verify(signed, certificates: [cert], now: now)
        #expect(text.hasPrefix("Dear Bob,\n- dashes"))
        #expect(verifications.map(\.isGood) == [true])
        // Mail clients mangle line endings; the signature still holds.
        let mangled = signed.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try CleartextSignature.verify(mangled, certificates: [cert], now: now).verifications.map(\.isGood) == [true])
        let altered = signed.replacingOccurrences(of: "From Alice", with: "From Mallory")
        #expect(try CleartextSignature.verify(altered, certificates: [cert], now: now).verifications.map(\.isGood) == [false])
    }

    @Test func parleyClearsignedTextVerifiesInGpg() async throws {
        let gpg = try GPG()
        let now = UInt32(Date().timeIntervalSince1970) - 60
        let key = try KeyGenerator.generate(userIDs: ["Signer <signer@example.org>"], passphrase: nil, now: now)
        try await gpg(["--import"], input: Array(key.publicCertificate.armored.utf8))
        let signed = try CleartextSignature.sign(Self.text + "\n", signers: [key.unlockedSigningKey(passphrases: [], now: now)], now: now)
        #expect(signed.contains("\n- - dashes"))
        try await gpg(["--verify"], input: Array(signed.utf8))
        let roundTrip = try CleartextSignature.verify(signed, certificates: [key.publicCertificate], now: now + 1)
        #expect(roundTrip.verifications.map(\.isGood) == [true])
        #expect(roundTrip.text == Self.text + "\n")
    }

    @Test func malformedCleartextIsAnError() {
        #expect(throws: PGPError.self) { try CleartextSignature.read("just text") }
        #expect(throws: PGPError.self) { try CleartextSignature.read("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\ntext\n") }
        #expect(throws: PGPError.self) {
            try CleartextSignature.read("-----BEGIN PGP SIGNED MESSAGE-----\n\nx\n-----BEGIN PGP SIGNATURE-----\n\n-----END PGP SIGNATURE-----\n")
        }
    }
}
