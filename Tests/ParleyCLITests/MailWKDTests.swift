import Foundation
import ParleyTestSupport
import Testing

/// Web Key Directory lookups through the binary: directories written by Sequoia's `sq wkd generate`, served over
/// real TLS by a Python server that plays several domains, and hostile directories (docs/MAIL.md §6.2).
@Suite("parley mail: Web Key Directory", .serialized, .offThePool)
struct MailWKDTests {
    let people: MailPeople
    let web: URL
    init() throws {
        people = try MailPeople("parley-mail-wkd")
        web = people.scratch.url.appendingPathComponent("web")
    }

    func path(_ name: String) -> String { people.path(name) }

    /// Makes a GnuPG key for `address` and exports it to `ADDRESS.pgp`; returns its fingerprint.
    func key(_ address: String) throws -> String {
        _ = try people.gpg(["--quick-gen-key", address, "ed25519", "sign", "never"])
        let fingerprint = try people.gpg(["--list-keys", "--with-colons", address]).split(separator: "\n")
            .first { $0.hasPrefix("fpr:") }.map { String($0.split(separator: ":", omittingEmptySubsequences: false)[9]) } ?? ""
        _ = try people.gpg(["--quick-add-key", fingerprint, "cv25519", "encr", "never"])
        _ = try people.gpg(["--output", path("\(address).pgp"), "--export", address])
        return fingerprint
    }

    func sqGenerate(host: String, domain: String, key: String, direct: Bool) throws {
        let made = try ToolRun.run("/usr/bin/sq", ["wkd", "generate"] + (direct ? ["--direct-method"] : [])
                                   + [web.appendingPathComponent(host).path, domain, path(key)])
        #expect(made.status == 0, "\(made.output)")
    }

    /// The hosts this test's server plays, all on 127.0.0.1.
    static let hosts = ["openpgpkey.example.org", "example.net", "openpgpkey.big.example", "openpgpkey.wrong.example",
                        "openpgpkey.broken.example"]

    @Test func lookupsFindKeysAndRefuseWhatIsNotTheirs() async throws {
        let dave = try key("dave@example.org")
        let frank = try key("frank@example.net")
        _ = try key("eve@wrong.example")
        try sqGenerate(host: "openpgpkey.example.org", domain: "example.org", key: "dave@example.org.pgp", direct: false)
        try sqGenerate(host: "example.net", domain: "example.net", key: "frank@example.net.pgp", direct: true)
        let certificate = try TestCertificate.make(in: people.scratch.url, name: "wkd", hostNames: Self.hosts)
        let server = try await WKDServer.start(root: web, certificate: certificate, bigHosts: ["openpgpkey.big.example"],
                                               anyFile: ["openpgpkey.wrong.example": path("eve@wrong.example.pgp")],
                                               status: ["openpgpkey.broken.example": 500])
        defer { server.stop() }
        // Every host resolves to the test server; down.example's hosts are mapped to a closed port.
        let mapping = (Self.hosts.map { "\($0)=127.0.0.1:\(server.port)" } + ["openpgpkey.down.example=127.0.0.1:1", "down.example=127.0.0.1:1"])
            .joined(separator: ",")
        let trusted = ["PARLEY_WKD_ADDRESS": mapping, "PARLEY_WKD_CA": certificate.cert]
        _ = try await people.addAccountAndSync()

        func lookup(_ address: String, _ environment: [String: String] = trusted) async throws -> ParleyBinary.Result {
            try await people.parley(["mail", "keys", "lookup", address], environment: environment)
        }
        // The advanced method; the key's fingerprint is the one GnuPG made.
        let found = try await lookup("Dave@Example.org")
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.contains("Found dave@example.org's key \(dave) at https://openpgpkey.example.org/.well-known/openpgpkey/example.org/hu/"), "\(found.stdout)")
        // openpgpkey.example.net is not there (no such name): the direct method on example.net.
        let direct = try await lookup("frank@example.net")
        #expect(direct.status == 0 && direct.stdout.contains("\(frank) at https://example.net/.well-known/openpgpkey/hu/"), "\(direct.stdout) \(direct.stderr)")
        // What must fail, each in words, none kept.
        let cases: [(String, String)] = [
            ("nobody@example.org", "openpgpkey.example.org has no key for nobody@example.org"),
            ("dave@big.example", "over 256 KiB; refused"),
            ("dave@wrong.example", "has no usable key naming dave@wrong.example"),
            ("dave@broken.example", "HTTP status 500"),
            ("dave@down.example", "no Web Key Directory for dave@down.example could be reached"),
        ]
        for (address, words) in cases {
            let refused = try await lookup(address)
            #expect(refused.status != 0 && refused.stderr.contains(words), "\(address): \(refused.stderr)")
        }
        // Without the test's trust root the directory's certificate is not trusted.
        let untrusted = try await lookup("dave@example.org", ["PARLEY_WKD_ADDRESS": mapping])
        #expect(untrusted.status != 0 && untrusted.stderr.contains("certificate is not trusted"), "\(untrusted.stderr)")

        let keys = try await people.parley(["mail", "keys"])
        let lines = keys.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines.contains { $0.hasPrefix("dave@example.org  wkd  \(dave)") }
                && lines.contains { $0.hasPrefix("frank@example.net  wkd  \(frank)") }, "\(keys.stdout)")
    }

    @Test func sendAsksTheDirectoryForAKeyItDoesNotHave() async throws {
        let frank = try key("frank@example.net")
        try sqGenerate(host: "example.net", domain: "example.net", key: "frank@example.net.pgp", direct: true)
        let certificate = try TestCertificate.make(in: people.scratch.url, name: "wkd", hostNames: Self.hosts)
        let server = try await WKDServer.start(root: web, certificate: certificate)
        defer { server.stop() }
        let environment = ["PARLEY_WKD_ADDRESS": "example.net=127.0.0.1:\(server.port)", "PARLEY_WKD_CA": certificate.cert]
        let generated = try await ParleyBinary.runDetached(["pgp", "keys", "generate", "--user-id", "Ann <\(MailPeople.ann)>",
                                                           "--passphrase-file", path("pass"), "--keyring", path("keyring")])
        #expect(generated.status == 0, "\(generated.stderr)")
        let annCert = try await ParleyBinary.runDetached(["pgp", "keys", "export", MailPeople.ann, "--keyring", path("keyring")])
        _ = try people.gpg(["--import"], input: annCert.stdout)
        let sink = try await SMTPSink.start(directory: people.scratch.url, tls: "starttls",
                                            certificate: (people.dovecot.certificate, people.dovecot.certificateKey),
                                            login: (MailPeople.ann, MailPeople.imapPassword))
        defer { sink.stop() }
        _ = try await people.addAccountAndSync()
        _ = try await people.parley(["mail", "account", "smtp", "--smtp", "127.0.0.1:\(sink.port)"])

        // --no-lookup: nothing is asked, nothing is sent.
        let refused = try await ParleyBinary.runDetached(people.withKeys(["mail", "send", "--home", path("home"), "--to", "frank@example.net",
                                                                         "--subject", "Hi", "--no-lookup"], passphraseFile: path("pass")),
                                                        stdin: "Hello Frank.\n", environment: environment)
        #expect(refused.status != 0 && refused.stderr.contains("frank@example.net has no OpenPGP key here"), "\(refused.stderr)")
        #expect(sink.messages.isEmpty)

        let sent = try await ParleyBinary.runDetached(people.withKeys(["mail", "send", "--home", path("home"), "--to", "frank@example.net",
                                                                      "--subject", "Hi"], passphraseFile: path("pass")),
                                                     stdin: "Hello Frank.\n", environment: environment)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stderr.contains("Asking the Web Key Directory for frank@example.net's key"), "\(sent.stderr)")
        #expect(sent.stdout.contains("frank@example.net: encrypted to a key from the Web Key Directory (\(frank)), not checked by you"), "\(sent.stdout)")
        let delivered = try #require(sink.messages.first)
        let opened = try people.gpg(["--status-fd", "1", "--decrypt"], input: try MailAutocryptTests.armored(delivered))
        #expect(opened.contains("[GNUPG:] DECRYPTION_OKAY") && opened.contains("[GNUPG:] GOODSIG") && opened.contains(Data("Hello Frank.\n".utf8).base64EncodedString()), "\(opened)")

        // The answer is kept: with the directory gone, the next send still finds Frank's key.
        server.stop()
        let again = try await ParleyBinary.runDetached(people.withKeys(["mail", "send", "--home", path("home"), "--to", "frank@example.net",
                                                                       "--subject", "Again"], passphraseFile: path("pass")),
                                                      stdin: "Still there?\n", environment: environment)
        #expect(again.status == 0 && !again.stderr.contains("Asking"), "\(again.stderr)")
        #expect(sink.messages.count == 2)
    }
}
