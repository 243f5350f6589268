import Foundation
import ParleyTestSupport
import Testing

/// Ann reads mail with Parley; Bob writes it with GnuPG and Python's `email` package (as other mail clients do);
/// both have an account on a real Dovecot on its defaults. Each test that uses this gets its own server and keys.
final class MailPeople: Sendable {
    static let ann = "ann@example.org"
    static let imapPassword = "ann's imap password"
    static let bob = "bob@example.org"
    static let bobGnuPGPassphrase = "bob"
    let passphrase = "ann's key pass phrase"
    let scratch: GnuPGScratch
    let dovecot: Dovecot

    init(_ name: String) throws {
        scratch = try GnuPGScratch(name)
        dovecot = try Dovecot(users: [Self.ann: Self.imapPassword, Self.bob: "bob's imap password"])
        try Data((passphrase + "\n").utf8).write(to: URL(fileURLWithPath: path("pass")))
    }

    func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }

    /// The Python generator of the messages, committed beside the other test fixtures.
    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/test-fixtures/mail_interop.py").path

    /// `parley ARGUMENTS --home HOME`, as Ann runs it.
    func parley(_ arguments: [String], environment: [String: String] = [:]) async throws -> ParleyBinary.Result {
        try await ParleyBinary.runDetached(arguments + ["--home", path("home")], environment: environment)
    }

    /// `parley mail read N` (or `save`) with Ann's keyring, plus `extra`.
    func withKeys(_ arguments: [String], passphraseFile: String? = nil) -> [String] {
        arguments + ["--keyring", path("keyring")] + (passphraseFile.map { ["--passphrase-file", $0] } ?? [])
    }

    /// Bob's GnuPG, non-interactive.
    func gpg(_ arguments: [String], input: String = "") throws -> String {
        try FileManager.default.createDirectory(atPath: path("gnupg"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let result = try ToolRun.run("/bin/sh", ["-c", "printf '%s' \"$INPUT\" | gpg --homedir \"$GH\" --batch --yes --no-tty --pinentry-mode loopback --passphrase \"$PP\" --trust-model always \"$@\"", "sh"] + arguments,
                                     environment: ["INPUT": input, "GH": path("gnupg"), "PP": Self.bobGnuPGPassphrase, "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "gpg \(arguments): \(result.output)")
        return result.output
    }

    /// Ann's key made by `parley pgp keys generate`; Bob's by GnuPG; each imports the other's certificate.
    /// Returns Bob's fingerprint.
    func exchangeKeys() async throws -> String {
        let keyring = path("keyring")
        let generated = try await ParleyBinary.runDetached(["pgp", "keys", "generate", "--user-id", "Ann <\(Self.ann)>", "--passphrase-file", path("pass"), "--keyring", keyring])
        #expect(generated.status == 0, "\(generated.stderr)")
        let annCert = try await ParleyBinary.runDetached(["pgp", "keys", "export", Self.ann, "--keyring", keyring])
        _ = try gpg(["--quick-gen-key", "Bob <\(Self.bob)>", "ed25519", "sign", "never"])
        let bobFingerprint = try gpg(["--list-keys", "--with-colons", Self.bob]).split(separator: "\n")
            .first { $0.hasPrefix("fpr:") }.map { String($0.split(separator: ":", omittingEmptySubsequences: false)[9]) } ?? ""
        _ = try gpg(["--quick-add-key", bobFingerprint, "cv25519", "encr", "never"])
        _ = try gpg(["--import"], input: annCert.stdout)
        try gpg(["--armor", "--export", Self.bob]).write(toFile: path("bob.asc"), atomically: true, encoding: .utf8)
        let imported = try await ParleyBinary.runDetached(["pgp", "keys", "import", path("bob.asc"), "--keyring", keyring])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(bobFingerprint.count == 40, "\(bobFingerprint)")
        return bobFingerprint
    }

    /// Runs the generator for `set` ("interop" or "errors") and delivers every message it wrote into Ann's INBOX,
    /// in file order. Returns the messages by file name (without ".eml").
    func deliver(set: String) throws -> [String: String] {
        let out = path("messages-\(set)")
        let generated = try ToolRun.run("/usr/bin/python3", [Self.generator, "--gnupg", path("gnupg"), "--passphrase", Self.bobGnuPGPassphrase,
                                                             "--from", Self.bob, "--to", Self.ann, "--out", out, "--set", set],
                                        environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(generated.status == 0, "\(generated.output)")
        var messages: [String: String] = [:]
        for name in generated.output.split(separator: "\n").map(String.init) where name.hasSuffix(".eml") {
            let eml = try String(contentsOfFile: "\(out)/\(name)", encoding: .utf8)
            try dovecot.save(eml, user: Self.ann)
            messages[String(name.dropLast(4))] = eml
        }
        return messages
    }

    /// `parley mail account add` and a first `sync`; returns the `list` output.
    func addAccountAndSync() async throws -> String {
        let added = try await parley(["mail", "account", "add", "--email", Self.ann, "--imap", "127.0.0.1:\(dovecot.imapsPort)", "--ca", dovecot.certificate],
                                     environment: ["PARLEY_MAIL_PASSWORD": Self.imapPassword])
        #expect(added.status == 0, "\(added.stderr)")
        let synced = try await parley(["mail", "sync"])
        #expect(synced.status == 0, "\(synced.stderr)")
        let listed = try await parley(["mail", "list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        return listed.stdout
    }

    /// The line of `list` output whose subject is `subject`, and the message number it starts with.
    static func listed(_ subject: String, in list: String) throws -> (line: String, number: String) {
        let line = try #require(list.split(separator: "\n").map(String.init).first { $0.hasSuffix("  \(subject)") || $0.contains("  \(subject)  ") },
                                "\(subject) is not listed: \(list)")
        return (line, try #require(line.split(separator: " ").first.map(String.init)))
    }
}
