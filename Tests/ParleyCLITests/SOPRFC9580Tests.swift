import Foundation
import ParleyTestSupport
import Testing

/// `parley sop` with RFC 9580: `--profile rfc9580` keys and messages through the real binary, and RFC 9580
/// Appendix A's samples (from Tests/ParleyPGPTests/Vectors/rfc9580) decrypted and verified by it.
@Suite("parley sop RFC 9580", .serialized, .offThePool)
struct SOPRFC9580Tests {
    let sop: SOPHarness
    let message = Data("a v6 message\n".utf8)

    init() throws { sop = try SOPHarness("parley-sop-rfc9580") }

    /// An Appendix A sample file.
    static func sample(_ name: String) throws -> Data {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return try Data(contentsOf: root.appendingPathComponent("ParleyPGPTests/Vectors/rfc9580/\(name).asc"))
    }

    @Test("generate-key --profile rfc9580: a v6 key that encrypts (SEIPD v2 by default), signs and re-locks")
    func v6KeyRoundTrip() throws {
        try sop.write("pass", "a long enough pass phrase\n")
        let key = try sop.parley(["generate-key", "--profile", "rfc9580", "--with-key-password", sop.path("pass"), "Vee <vee@example.org>"])
        #expect(key.status == 0, "\(key.stderr)")
        try sop.write("vee.key", key.stdout)
        let cert = try sop.parley(["extract-cert"], stdin: key.stdout)
        try sop.write("vee.cert", cert.stdout)
        let encrypted = try sop.parley(["encrypt", "--no-armor", sop.path("vee.cert")], stdin: message)
        #expect(encrypted.status == 0)
        #expect(encrypted.stdout.count > 3 && encrypted.stdout[encrypted.stdout.startIndex + 2] == 6)  // a v6 PKESK first
        let decrypted = try sop.parley(["decrypt", "--with-key-password", sop.path("pass"), sop.path("vee.key")], stdin: encrypted.stdout)
        #expect(decrypted.status == 0 && decrypted.stdout == message, "\(decrypted.stderr)")
        #expect(try sop.parley(["decrypt", sop.path("vee.key")], stdin: encrypted.stdout).status == 67)
        let signature = try sop.parley(["sign", "--with-key-password", sop.path("pass"), sop.path("vee.key")], stdin: message)
        try sop.write("sig", signature.stdout)
        #expect(try sop.parley(["verify", sop.path("sig"), sop.path("vee.cert")], stdin: message).status == 0)
        #expect(try sop.parley(["verify", sop.path("sig"), sop.path("vee.cert")], stdin: Data("other\n".utf8)).status == 3)
        let clear = try sop.parley(["inline-sign", "--as=clearsigned", "--with-key-password", sop.path("pass"), sop.path("vee.key")], stdin: message)
        let verified = try sop.parley(["inline-verify", sop.path("vee.cert")], stdin: clear.stdout)
        #expect(verified.status == 0 && verified.stdout == message)
        // Password messages in the rfc9580 profile: v6 SKESK with Argon2.
        try sop.write("pw", "password words\n")
        let byPassword = try sop.parley(["encrypt", "--profile", "rfc9580", "--with-password", sop.path("pw")], stdin: message)
        #expect(try sop.parley(["decrypt", "--with-password", sop.path("pw")], stdin: byPassword.stdout).stdout == message)
    }

    @Test("the Appendix A samples decrypt and verify through parley sop")
    func appendixSamples() throws {
        try sop.write("a4.key", Self.sample("a4-v6-secret-key"))
        try sop.write("a3.cert", Self.sample("a3-v6-certificate"))
        let hello = Data("Hello, world!".utf8)
        let a8 = try sop.parley(["decrypt", sop.path("a4.key")], stdin: Self.sample("a8-x25519-aead-ocb"))
        #expect(a8.status == 0 && a8.stdout == hello, "\(a8.stderr)")
        try sop.write("password", "password")
        for name in ["a9-aead-eax", "a10-aead-ocb", "a11-aead-gcm"] {
            let run = try sop.parley(["decrypt", "--with-password", sop.path("password")], stdin: Self.sample(name))
            #expect(run.status == 0 && run.stdout == hello, "\(name): \(run.stderr)")
        }
        let inline = try sop.parley(["inline-verify", sop.path("a3.cert")], stdin: Self.sample("a7-inline-signed"))
        #expect(inline.status == 0, "\(inline.stderr)")
        let clear = try sop.parley(["inline-verify", sop.path("a3.cert")], stdin: Self.sample("a6-cleartext-signed"))
        #expect(clear.status == 0, "\(clear.stderr)")
        // Altered: a flipped character inside the armored SEIPD is 29 with nothing on stdout.
        var altered = String(decoding: try Self.sample("a10-aead-ocb"), as: UTF8.self)
        altered = altered.replacingOccurrences(of: "WRDQns3WQf", with: "WRDQns3WQg")
        let refused = try sop.parley(["decrypt", "--with-password", sop.path("password")], stdin: Data(altered.utf8))
        #expect(refused.status == 29 && refused.stdout.isEmpty)
    }
}
