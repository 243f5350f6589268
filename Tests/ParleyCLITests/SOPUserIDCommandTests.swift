import Foundation
import ParleyTestSupport
import Testing

/// `parley sop certify-userid` and `validate-userid` through the real binary. sqop 0.27.3 implements
/// neither (exit 69), so gpg is the peer: it checks Parley's certifications (`--check-sigs`) and makes
/// certifications (`--quick-sign-key`) that Parley validates; sqop makes the keys.
@Suite("parley sop user IDs", .serialized, .offThePool)
struct SOPUserIDCommandTests {
    let sop: SOPHarness
    static let bob = "bob <bob@example.org>"

    init() throws { sop = try SOPHarness("parley-sop-uids") }

    func expectFailure(_ run: SOPHarness.Run, _ code: Int32, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == code, comment, sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, comment, sourceLocation: sourceLocation)
        #expect(!run.stderr.isEmpty, comment, sourceLocation: sourceLocation)
    }

    @Test("Parley certifies a sqop certificate; Parley and gpg both accept the certification")
    func certifyAndValidate() throws {
        try sop.write("pw", "the certifier's pass phrase\n")
        try sop.parleyKey("alice", password: "pw")
        try sop.sqopKey("bob")
        expectFailure(try sop.parley(["validate-userid", Self.bob, sop.path("alice.cert")], stdinFile: "bob.cert"), 107)
        #expect(try sop.parley(["validate-userid", Self.bob, sop.path("bob.cert")], stdinFile: "bob.cert").status == 0, "a key vouches for itself")

        let certified = try sop.parley(["certify-userid", "--userid", Self.bob, "--with-key-password", sop.path("pw"), sop.path("alice.key")],
                                       stdinFile: "bob.cert")
        #expect(certified.status == 0)
        #expect(certified.text.hasPrefix("-----BEGIN PGP PUBLIC KEY BLOCK-----"))
        try sop.write("bob.certified", certified.stdout)
        let validate = try sop.parley(["validate-userid", Self.bob, sop.path("alice.cert")], stdinFile: "bob.certified")
        #expect(validate.status == 0)
        #expect(validate.stdout.isEmpty)
        #expect(try sop.parley(["validate-userid", "--addr-spec-only", "Bob@Example.org", sop.path("alice.cert")], stdinFile: "bob.certified").status == 0)
        expectFailure(try sop.parley(["validate-userid", "bob@example.org", sop.path("alice.cert")], stdinFile: "bob.certified"), 107)
        expectFailure(try sop.parley(["validate-userid", "--validate-at", "2020-01-01T00:00:00Z", Self.bob, sop.path("alice.cert")],
                                     stdinFile: "bob.certified"), 107, "before the certification was made")
        // A second authority that certified nothing does not spoil the first.
        try sop.parleyKey("carol")
        #expect(try sop.parley(["validate-userid", Self.bob, sop.path("carol.cert"), sop.path("alice.cert")], stdinFile: "bob.certified").status == 0)
        // Every certificate on stdin must validate.
        let both = try sop.read("bob.certified") + sop.read("carol.cert")
        expectFailure(try sop.parley(["validate-userid", Self.bob, sop.path("alice.cert")], stdin: both), 107)

        // gpg checks the certification Parley made over sqop's certificate.
        #expect(try sop.gpg(["--import"], stdin: try sop.read("alice.cert")).status == 0)
        #expect(try sop.gpg(["--import"], stdin: certified.stdout).status == 0)
        let aliceKeyID = try #require(SOPHarness.records(try sop.gpg(["--with-colons", "--list-keys", "alice@example.org"]), "pub").first?[4])
        let signatures = SOPHarness.records(try sop.gpg(["--with-colons", "--check-sigs", "bob@example.org"]), "sig")
        let byAlice = signatures.filter { $0[4] == aliceKeyID }
        #expect(byAlice.count == 1)
        #expect(byAlice.first?[1] == "!")
    }

    @Test("a gpg certification validates with Parley; gpg's revocation of it makes validate-userid fail")
    func gpgCertificationValidates() throws {
        try sop.sqopKey("bob")
        #expect(try sop.gpg(["--quick-gen-key", "Grace <grace@example.org>", "future-default", "default", "never"]).status == 0)
        #expect(try sop.gpg(["--import"], stdin: try sop.read("bob.cert")).status == 0)
        #expect(try sop.gpg(["-u", "grace@example.org", "--quick-sign-key", bobFingerprint(), Self.bob]).status == 0)
        try sop.write("grace.cert", try sop.gpg(["--armor", "--export", "grace@example.org"]).stdout)
        try sop.write("bob.gpg", try sop.gpg(["--armor", "--export", "bob@example.org"]).stdout)
        #expect(try sop.parley(["validate-userid", Self.bob, sop.path("grace.cert")], stdinFile: "bob.gpg").status == 0)
        #expect(try sop.parley(["validate-userid", "--addr-spec-only", "bob@example.org", sop.path("grace.cert")], stdinFile: "bob.gpg").status == 0)
        expectFailure(try sop.parley(["validate-userid", Self.bob, sop.path("grace.cert")], stdinFile: "bob.cert"), 107)

        let graceKeyID = try #require(SOPHarness.records(try sop.gpg(["--with-colons", "--list-keys", "grace@example.org"]), "pub").first?[4])
        #expect(try sop.gpg(["-u", "grace@example.org", "--quick-revoke-sig", bobFingerprint(), String(graceKeyID)]).status == 0)
        try sop.write("bob.revoked-sig", try sop.gpg(["--armor", "--export", "bob@example.org"]).stdout)
        expectFailure(try sop.parley(["validate-userid", Self.bob, sop.path("grace.cert")], stdinFile: "bob.revoked-sig"), 107)
    }

    @Test("certify-userid: unbound user IDs are 107 unless --no-require-self-sig; a revoked authority vouches for nothing; bad input 41, 67, 19")
    func certifyErrors() throws {
        try sop.write("pw", "the certifier's pass phrase\n")
        try sop.parleyKey("alice", password: "pw")
        try sop.sqopKey("bob")
        let certify = ["certify-userid", "--with-key-password", sop.path("pw")]
        expectFailure(try sop.parley(certify + ["--userid", "Bobby", sop.path("alice.key")], stdinFile: "bob.cert"), 107)
        let pet = try sop.parley(certify + ["--no-require-self-sig", "--userid", "Bobby", sop.path("alice.key")], stdinFile: "bob.cert")
        #expect(pet.status == 0)
        #expect(try sop.parley(["validate-userid", "Bobby", sop.path("alice.cert")], stdin: pet.stdout).status == 0)
        expectFailure(try sop.parley(["validate-userid", "Bobby", sop.path("bob.cert")], stdin: pet.stdout), 107, "Bob never bound it himself")

        // A sqop key certifies too (a peer's key material, unprotected).
        let bySqop = try sop.parley(["certify-userid", "--userid", "alice <alice@example.org>", sop.path("bob.key")], stdinFile: "alice.cert")
        #expect(bySqop.status == 0)
        #expect(try sop.parley(["validate-userid", "alice <alice@example.org>", sop.path("bob.cert")], stdin: bySqop.stdout).status == 0)

        let revocation = try sop.parley(["revoke-key", "--with-key-password", sop.path("pw")], stdinFile: "alice.key")
        try sop.write("alice.rev", revocation.stdout)
        let revokedKey = try sop.parley(["update-key", "--merge-certs", sop.path("alice.rev"), "--with-key-password", sop.path("pw")], stdinFile: "alice.key")
        #expect(revokedKey.status == 103, "update-key refuses a revoked key")
        expectFailure(try sop.parley(["validate-userid", Self.bob, sop.path("alice.rev")],
                                     stdin: try sop.parley(certify + ["--userid", Self.bob, sop.path("alice.key")], stdinFile: "bob.cert").stdout),
                      107, "a revoked authority vouches for nothing")

        try sop.write("wrong", "not the pass phrase\n")
        expectFailure(try sop.parley(["certify-userid", "--userid", Self.bob, "--with-key-password", sop.path("wrong"), sop.path("alice.key")],
                                     stdinFile: "bob.cert"), 67)
        expectFailure(try sop.parley(["certify-userid", "--userid", Self.bob, sop.path("alice.key")], stdinFile: "bob.cert"), 67)
        expectFailure(try sop.parley(["certify-userid", "--userid", Self.bob, sop.path("alice.cert")], stdinFile: "bob.cert"), 41, "a certificate as KEYS")
        expectFailure(try sop.parley(certify + ["--userid", Self.bob, sop.path("alice.key")], stdinFile: "bob.key"), 41, "a secret key as CERTS")
        expectFailure(try sop.parley(certify + ["--userid", Self.bob, sop.path("alice.key")], stdin: SOPKeyMaintenanceCommandTests.garbage), 41)
        let cert = try sop.read("bob.cert")
        expectFailure(try sop.parley(certify + ["--userid", Self.bob, sop.path("alice.key")], stdin: cert.prefix(cert.count / 2)), 41)
        expectFailure(try sop.parley(certify + [sop.path("alice.key")], stdinFile: "bob.cert"), 19)
        expectFailure(try sop.parley(certify + ["--userid", Self.bob], stdinFile: "bob.cert"), 19)
    }

    @Test("certify-userid with a key gpg revoked, or one that expired, is 109 (KEY_CANNOT_CERTIFY)")
    func keysThatCannotCertify() throws {
        try sop.sqopKey("bob")
        #expect(try sop.gpg(["--quick-gen-key", "Rex <rex@example.org>", "future-default", "default", "never"]).status == 0)
        let rex = try #require(SOPHarness.records(try sop.gpg(["--with-colons", "--list-keys", "rex@example.org"]), "fpr").first.map { String($0[9]) })
        // gpg keeps a ready revocation certificate, defused with a leading colon.
        let stored = try String(contentsOfFile: sop.path("gnupg/openpgp-revocs.d/\(rex).rev"), encoding: .utf8)
        #expect(try sop.gpg(["--import"], stdin: Data(stored.replacingOccurrences(of: ":-----BEGIN", with: "-----BEGIN").utf8)).status == 0)
        try sop.write("rex.key", try sop.gpg(["--armor", "--export-secret-keys", rex]).stdout)
        expectFailure(try sop.parley(["certify-userid", "--userid", Self.bob, sop.path("rex.key")], stdinFile: "bob.cert"), 109)

        // Made "in 2020" with a one-day lifetime: long expired.
        #expect(try sop.gpg(["--faked-system-time", "20200101T000000", "--quick-gen-key", "Old <old@example.org>", "future-default", "default", "1d"]).status == 0)
        try sop.write("old.key", try sop.gpg(["--armor", "--export-secret-keys", "old@example.org"]).stdout)
        expectFailure(try sop.parley(["certify-userid", "--userid", Self.bob, sop.path("old.key")], stdinFile: "bob.cert"), 109)
    }

    @Test("validate-userid: missing authorities 19, garbage 41, an unreadable time 37")
    func validateErrors() throws {
        try sop.parleyKey("alice")
        expectFailure(try sop.parley(["validate-userid", Self.bob], stdinFile: "alice.cert"), 19)
        expectFailure(try sop.parley(["validate-userid"], stdinFile: "alice.cert"), 19)
        expectFailure(try sop.parley(["validate-userid", Self.bob, sop.path("alice.cert")], stdin: SOPKeyMaintenanceCommandTests.garbage), 41)
        expectFailure(try sop.parley(["validate-userid", Self.bob, sop.path("alice.cert")]), 41, "nothing on stdin")
        try sop.write("garbage", SOPKeyMaintenanceCommandTests.garbage)
        expectFailure(try sop.parley(["validate-userid", Self.bob, sop.path("garbage")], stdinFile: "alice.cert"), 41)
        expectFailure(try sop.parley(["validate-userid", "--validate-at", "yesterday-ish", Self.bob, sop.path("alice.cert")], stdinFile: "alice.cert"), 37)
    }

    func bobFingerprint() throws -> String {
        try #require(SOPHarness.records(try sop.gpg(["--with-colons", "--list-keys", "bob@example.org"]), "fpr").first.map { String($0[9]) })
    }
}
