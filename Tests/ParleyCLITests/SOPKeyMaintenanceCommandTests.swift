import Foundation
import ParleyTestSupport
import Testing

/// `parley sop` list-profiles, change-key-password, revoke-key, update-key and merge-certs through the
/// real binary, with sqop and gpg judging the output (neither peer implements these subcommands —
/// `sqop 0.27.3` and `gosop 0.0.0` exit 69 — so they check what Parley made by using it).
@Suite("parley sop key maintenance", .serialized, .offThePool)
struct SOPKeyMaintenanceCommandTests {
    let sop: SOPHarness
    let message = Data("key maintenance message\n".utf8)
    static let garbage = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 19) })

    init() throws { sop = try SOPHarness("parley-sop-keys") }

    /// A failure as the draft wants it: the exit code, nothing on stdout, a reason on stderr.
    func expectFailure(_ run: SOPHarness.Run, _ code: Int32, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == code, comment, sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, comment, sourceLocation: sourceLocation)
        #expect(!run.stderr.isEmpty, comment, sourceLocation: sourceLocation)
    }

    /// The first half of an armored block: armor that ends before its END line.
    func truncated(_ name: String) throws -> Data { let data = try sop.read(name); return data.prefix(data.count / 2) }

    @Test("list-profiles lists only what Parley makes; other subcommands are 89; encrypt --profile follows it")
    func listProfiles() throws {
        let generate = try sop.parley(["list-profiles", "generate-key"])
        #expect(generate.status == 0)
        #expect(generate.text.split(separator: "\n").map { $0.prefix { $0 != ":" } } == ["default", "rfc4880", "rfc9580"])
        let encrypt = try sop.parley(["list-profiles", "encrypt"])
        #expect(encrypt.status == 0)
        #expect(encrypt.text.hasPrefix("rfc4880: "))
        #expect(encrypt.text.split(separator: "\n").map { $0.prefix { $0 != ":" } } == ["rfc4880", "rfc9580"])
        expectFailure(try sop.parley(["list-profiles", "sign"]), 89)
        expectFailure(try sop.parley(["list-profiles", "nonsense"]), 89)
        expectFailure(try sop.parley(["list-profiles"]), 19)
        try sop.parleyKey("alice")
        for profile in ["rfc4880", "default", "rfc9580"] {
            let encrypted = try sop.parley(["encrypt", "--profile", profile, sop.path("alice.cert")], stdin: message)
            #expect(encrypted.status == 0)
            #expect(try sop.parley(["decrypt", sop.path("alice.key")], stdin: encrypted.stdout).stdout == message)
        }
        expectFailure(try sop.parley(["encrypt", "--profile", "rfc9999", sop.path("alice.cert")], stdin: message), 89)
    }

    @Test("change-key-password: sqop signs with the new password and not the old; wrong or missing old password is 67")
    func changeKeyPassword() throws {
        try sop.write("old", "the old pass phrase words\n")
        try sop.write("new", "the new pass phrase words\n")
        try sop.parleyKey("alice", password: "old")
        let relocked = try sop.parley(["change-key-password", "--old-key-password", sop.path("old"), "--new-key-password", sop.path("new")],
                                      stdinFile: "alice.key")
        #expect(relocked.status == 0)
        #expect(relocked.text.hasPrefix("-----BEGIN PGP PRIVATE KEY BLOCK-----"))
        try sop.write("relocked.key", relocked.stdout)
        let signature = try sop.sqop(["sign", "--with-key-password", sop.path("new"), sop.path("relocked.key")], stdin: message)
        #expect(signature.status == 0)
        try sop.write("sig", signature.stdout)
        #expect(try sop.parley(["verify", sop.path("sig"), sop.path("alice.cert")], stdin: message).status == 0)
        #expect(try sop.sqop(["sign", "--with-key-password", sop.path("old"), sop.path("relocked.key")], stdin: message).status != 0)
        #expect(try sop.sqop(["sign", sop.path("relocked.key")], stdin: message).status != 0)

        // No new password: the key comes out unprotected, and sqop needs none.
        let open = try sop.parley(["change-key-password", "--no-armor", "--old-key-password", sop.path("new")], stdinFile: "relocked.key")
        #expect(open.status == 0)
        #expect(open.stdout.first.map { $0 & 0x80 != 0 } == true)
        try sop.write("open.key", open.stdout)
        #expect(try sop.sqop(["sign", sop.path("open.key")], stdin: message).status == 0)

        // A sqop key, locked by Parley, is used by sqop with that password.
        try sop.sqopKey("bob")
        let bobLocked = try sop.parley(["change-key-password", "--new-key-password", sop.path("new")], stdinFile: "bob.key")
        #expect(bobLocked.status == 0)
        try sop.write("bob.locked", bobLocked.stdout)
        let toBob = try sop.sqop(["encrypt", sop.path("bob.cert")], stdin: message)
        #expect(try sop.sqop(["decrypt", "--with-key-password", sop.path("new"), sop.path("bob.locked")], stdin: toBob.stdout).stdout == message)

        try sop.write("wrong", "not the pass phrase\n")
        expectFailure(try sop.parley(["change-key-password", "--old-key-password", sop.path("wrong"), "--new-key-password", sop.path("new")],
                                     stdinFile: "alice.key"), 67)
        expectFailure(try sop.parley(["change-key-password", "--new-key-password", sop.path("new")], stdinFile: "alice.key"), 67)
        expectFailure(try sop.parley(["change-key-password"], stdinFile: "alice.cert"), 41, "a certificate where a key is needed")
        expectFailure(try sop.parley(["change-key-password"], stdin: Self.garbage), 41)
        expectFailure(try sop.parley(["change-key-password"], stdin: try truncated("alice.key")), 41)
        expectFailure(try sop.parley(["change-key-password"]), 41, "nothing on stdin")
        expectFailure(try sop.parley(["change-key-password", "--old-key-password", sop.path("missing")], stdinFile: "alice.key"), 61)
    }

    @Test("revoke-key: sqop no longer accepts the key's signatures, gpg lists it revoked; bad input exits 41 or 67")
    func revokeKey() throws {
        try sop.write("pw", "a revocation pass phrase\n")
        try sop.parleyKey("alice", password: "pw")
        let signature = try sop.parley(["sign", "--with-key-password", sop.path("pw"), sop.path("alice.key")], stdin: message)
        try sop.write("sig", signature.stdout)
        #expect(try sop.sqop(["verify", sop.path("sig"), sop.path("alice.cert")], stdin: message).status == 0)

        let revocation = try sop.parley(["revoke-key", "--with-key-password", sop.path("pw")], stdinFile: "alice.key")
        #expect(revocation.status == 0)
        #expect(revocation.text.hasPrefix("-----BEGIN PGP PUBLIC KEY BLOCK-----"))
        try sop.write("alice.rev", revocation.stdout)
        // A hard revocation (no reason given): Sequoia takes back every signature of the key, old ones too.
        #expect(try sop.sqop(["verify", sop.path("sig"), sop.path("alice.rev")], stdin: message).status == 3)
        #expect(try sop.parley(["verify", sop.path("sig"), sop.path("alice.rev")], stdin: message).status == 3)
        expectFailure(try sop.parley(["encrypt", sop.path("alice.rev")], stdin: message), 17)
        #expect(try sop.gpg(["--import"], stdin: revocation.stdout).status == 0)
        #expect(SOPHarness.records(try sop.gpg(["--with-colons", "--list-keys", "alice@example.org"]), "pub").first?[1] == "r")

        try sop.write("wrong", "not the pass phrase\n")
        expectFailure(try sop.parley(["revoke-key", "--with-key-password", sop.path("wrong")], stdinFile: "alice.key"), 67)
        expectFailure(try sop.parley(["revoke-key"], stdinFile: "alice.key"), 67)
        expectFailure(try sop.parley(["revoke-key"], stdinFile: "alice.cert"), 41)
        expectFailure(try sop.parley(["revoke-key"], stdin: Self.garbage), 41)
        expectFailure(try sop.parley(["revoke-key"], stdin: try truncated("alice.key")), 41)
        expectFailure(try sop.parley(["revoke-key", "--as=text"], stdinFile: "alice.key"), 37)
    }

    @Test("merge-certs: a sqop certificate with Parley's revocation and certification merged in; gpg imports every part")
    func mergeCerts() throws {
        try sop.sqopKey("bob")
        try sop.parleyKey("alice")
        // Two updates to Bob's certificate made apart: Alice's certification, and Bob's revocation.
        let certified = try sop.parley(["certify-userid", "--userid", "bob <bob@example.org>", sop.path("alice.key")], stdinFile: "bob.cert")
        #expect(certified.status == 0)
        try sop.write("bob.certified", certified.stdout)
        let revocation = try sop.parley(["revoke-key"], stdinFile: "bob.key")
        #expect(revocation.status == 0)
        try sop.write("bob.rev", revocation.stdout)
        let merged = try sop.parley(["merge-certs", sop.path("bob.certified"), sop.path("bob.rev"), sop.path("alice.cert")], stdinFile: "bob.cert")
        #expect(merged.status == 0)
        #expect(merged.text.hasPrefix("-----BEGIN PGP PUBLIC KEY BLOCK-----"))
        #expect(!merged.text.contains("Alice"), "only certificates from standard input come out")
        try sop.write("bob.merged", merged.stdout)
        #expect(try sop.parley(["validate-userid", "bob <bob@example.org>", sop.path("alice.cert")], stdinFile: "bob.merged").status == 107,
                "Bob's certificate is revoked now")
        let signature = try sop.sqop(["sign", sop.path("bob.key")], stdin: message)
        try sop.write("sig", signature.stdout)
        #expect(try sop.sqop(["verify", sop.path("sig"), sop.path("bob.cert")], stdin: message).status == 0)
        #expect(try sop.sqop(["verify", sop.path("sig"), sop.path("bob.merged")], stdin: message).status == 3)

        // Merging again, or merging a copy in, changes nothing; --no-armor gives the same packets.
        #expect(try sop.parley(["merge-certs", sop.path("bob.merged"), sop.path("bob.certified")], stdinFile: "bob.merged").stdout == merged.stdout)
        let binary = try sop.parley(["merge-certs", "--no-armor", sop.path("bob.certified"), sop.path("bob.rev")], stdinFile: "bob.cert")
        #expect(try sop.parley(["dearmor"], stdin: merged.stdout).stdout == binary.stdout)

        #expect(try sop.gpg(["--import"], stdin: merged.stdout).status == 0)
        #expect(try sop.gpg(["--import"], stdin: try sop.read("alice.cert")).status == 0)
        let listing = try sop.gpg(["--with-colons", "--check-sigs", "bob@example.org"])
        #expect(SOPHarness.records(listing, "pub").first?[1] == "r")
        #expect(SOPHarness.records(listing, "uid").count == 1)
        let sqopSubkeys = SOPHarness.records(try sop.gpg(["--with-colons", "--show-keys"], stdin: try sop.read("bob.cert")), "sub").count
        #expect(sqopSubkeys == 2)
        #expect(SOPHarness.records(listing, "sub").count == sqopSubkeys)
        #expect(SOPHarness.records(listing, "rev").count == 1)

        expectFailure(try sop.parley(["merge-certs"], stdinFile: "bob.key"), 41, "a secret key where certificates are expected")
        expectFailure(try sop.parley(["merge-certs"], stdin: Self.garbage), 41)
        expectFailure(try sop.parley(["merge-certs"], stdin: try truncated("bob.cert")), 41)
        try sop.write("garbage", Self.garbage)
        expectFailure(try sop.parley(["merge-certs", sop.path("garbage")], stdinFile: "bob.cert"), 41)
        expectFailure(try sop.parley(["merge-certs", sop.path("missing")], stdinFile: "bob.cert"), 61)
    }

    @Test("update-key: a current key comes back unchanged, --merge-certs absorbs a certification, a revoked key is 103")
    func updateKey() throws {
        try sop.write("pw", "an update pass phrase\n")
        try sop.parleyKey("alice", password: "pw")
        try sop.sqopKey("bob")
        let same = try sop.parley(["update-key", "--with-key-password", sop.path("pw")], stdinFile: "alice.key")
        #expect(same.status == 0)
        #expect(try sop.parley(["dearmor"], stdin: same.stdout).stdout == (try sop.parley(["dearmor"], stdinFile: "alice.key").stdout))
        #expect(try sop.parley(["update-key", "--signing-only", "--no-added-capabilities", "--with-key-password", sop.path("pw")],
                               stdinFile: "alice.key").status == 0)

        // Bob absorbs Alice's certification of his user ID into his secret key.
        let certified = try sop.parley(["certify-userid", "--userid", "bob <bob@example.org>", "--with-key-password", sop.path("pw"),
                                        sop.path("alice.key")], stdinFile: "bob.cert")
        try sop.write("bob.certified", certified.stdout)
        let updated = try sop.parley(["update-key", "--merge-certs", sop.path("bob.certified")], stdinFile: "bob.key")
        #expect(updated.status == 0)
        #expect(updated.text.hasPrefix("-----BEGIN PGP PRIVATE KEY BLOCK-----"))
        try sop.write("bob.updated", updated.stdout)
        let bobCert = try sop.parley(["extract-cert"], stdin: updated.stdout)
        #expect(try sop.parley(["validate-userid", "bob <bob@example.org>", sop.path("alice.cert")], stdin: bobCert.stdout).status == 0)
        let toBob = try sop.parley(["encrypt", sop.path("bob.cert")], stdin: message)
        #expect(try sop.sqop(["decrypt", sop.path("bob.updated")], stdin: toBob.stdout).stdout == message, "sqop still uses the updated key")

        let revocation = try sop.parley(["revoke-key"], stdinFile: "bob.key")
        try sop.write("bob.rev", revocation.stdout)
        expectFailure(try sop.parley(["update-key", "--merge-certs", sop.path("bob.rev")], stdinFile: "bob.key"), 103)
        try sop.write("wrong", "not the pass phrase\n")
        expectFailure(try sop.parley(["update-key", "--with-key-password", sop.path("wrong")], stdinFile: "alice.key"), 67)
        expectFailure(try sop.parley(["update-key"], stdinFile: "alice.key"), 67)
        expectFailure(try sop.parley(["update-key"], stdinFile: "alice.cert"), 41)
        expectFailure(try sop.parley(["update-key"], stdin: Self.garbage), 41)
        expectFailure(try sop.parley(["update-key"], stdin: try truncated("bob.key")), 41)
    }
}
