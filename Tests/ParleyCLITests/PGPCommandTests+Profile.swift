import Foundation
import ParleyPGP
import Testing

extension PGPCommandTests {
    /// The SEIPD packet's version (1 or 2) and the session-key packets' versions of a binary message.
    func versions(_ message: Data) throws -> (seipd: UInt8?, keys: [UInt8]) {
        let packets = try PacketParser.parse(Array(message))
        let seipd = packets.first { $0.tag == .symEncryptedIntegrityProtectedData }?.body.first
        let keys = packets.filter { $0.tag == .publicKeyEncryptedSessionKey }.compactMap(\.body.first)
        return (seipd, keys)
    }

    @Test("keys generate --profile rfc9580 makes a v6 key; encrypting to it writes SEIPD v2 by itself, --profile rfc4880 forces v1, and both decrypt")
    func rfc9580Profile() async throws {
        let made = try await pgp(["keys", "generate", "--profile", "rfc9580", "--user-id", "Vera Six <v6@example.org>", "--passphrase-file", path("pass")])
        #expect(made.status == 0, "\(made.stderr)")
        let text = String(decoding: made.stdout, as: UTF8.self)
        #expect(text.contains("Generated v6 Ed25519/X25519 key"), "\(text)")
        try Data("for the v6 key\n".utf8).write(to: URL(fileURLWithPath: path("plain.txt")))

        #expect(try await pgp(["encrypt", "-r", "v6@example.org", "-o", path("v2.pgp"), path("plain.txt")]).status == 0)
        #expect(try versions(read("v2.pgp")) == (2, [6]), "a v6 recipient gets SEIPD v2 and a v6 PKESK")
        #expect(try await pgp(["encrypt", "--profile", "rfc4880", "-r", "v6@example.org", "-o", path("v1.pgp"), path("plain.txt")]).status == 0)
        #expect(try versions(read("v1.pgp")).seipd == 1)
        for name in ["v2.pgp", "v1.pgp"] {
            let opened = try await pgp(["decrypt", "-o", path("\(name).out"), path(name)], environment: ["PARLEY_PGP_PASSPHRASE": passphrase])
            #expect(opened.status == 0, "\(name): \(opened.stderr)")
            #expect(try read("\(name).out") == read("plain.txt"))
        }
        // GnuPG 2.2 cannot read the v6 message: the default profile exists so v4 recipients never get one.
        let v4 = try await generate("Vera Four <v4@example.org>")
        #expect(try await pgp(["encrypt", "-r", v4, "-o", path("four.pgp"), path("plain.txt")]).status == 0)
        #expect(try versions(read("four.pgp")).seipd == 1, "a v4 recipient gets SEIPD v1")
        let refused = try await pgp(["keys", "generate", "--profile", "rfc9580", "--rsa", "3072", "--user-id", "X <x@example.org>", "--passphrase-file", path("pass")])
        #expect(refused.status != 0 && refused.stderr.contains("--rsa makes a v4 key"), "\(refused.stderr)")
        let unknown = try await pgp(["encrypt", "--profile", "rfc2440", "-r", v4, "-o", path("x.pgp"), path("plain.txt")])
        #expect(unknown.status != 0 && !exists("x.pgp"))
    }
}
