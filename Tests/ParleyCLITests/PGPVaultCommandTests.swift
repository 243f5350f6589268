import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// `parley pgp` with its keys in a Parley account's vault: sealed under the MainKey, never as files.
@Suite("parley pgp keys in the account vault", .serialized, .offThePool)
struct PGPVaultCommandTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-pgp-vault-\(UUID().uuidString)")
    let passphrase = "vault test pass phrase"

    func path(_ name: String) -> String { root.appendingPathComponent(name).path }

    func pgp(_ arguments: [String], home: URL) async throws -> ParleyBinary.Result {
        try await ParleyBinary.runDetached(
            ["pgp"] + arguments + ["--home", home.path, "--passphrase-file", path("pass")],
            environment: ["PARLEY_PGP_KEYRING": ""])
    }

    /// Every file under `directory` as bytes, for the at-rest checks.
    func files(under directory: URL) -> [(String, Data)] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).compactMap { url in
            (try? Data(contentsOf: url)).map { (url.path, $0) }
        }
    }

    @Test func generateListEncryptDecryptAndNothingInTheClear() async throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data((passphrase + "\n").utf8).write(to: URL(fileURLWithPath: path("pass")))
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let home = root.appendingPathComponent("ann")
        try await CLIAccounts.register("ann", home: home, server: server)
        try await server.stop()  // nothing below needs the server

        let generated = try await pgp(["keys", "generate", "--user-id", "Ann Vault <ann-vault@example.org>"], home: home)
        #expect(generated.status == 0, "\(generated.stderr)")
        let fingerprint = try #require(generated.stdout.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.count == 40 })

        let listed = try await pgp(["keys", "list"], home: home)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("sec"), "\(listed.stdout)")
        #expect(listed.stdout.contains(fingerprint))
        #expect(listed.stdout.contains("ann-vault@example.org"))

        // The key is in the sealed store only: no keyring directory, no user ID or armor in any file.
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("pgp").path))
        for (file, bytes) in files(under: home) {
            #expect(bytes.range(of: Data("ann-vault".utf8)) == nil, "\(file) holds the user ID in the clear")
            #expect(bytes.range(of: Data("BEGIN PGP".utf8)) == nil, "\(file) holds armor in the clear")
        }

        try Data("for Ann's vault key only".utf8).write(to: URL(fileURLWithPath: path("plain")))
        let encrypted = try await pgp(["encrypt", "-r", "ann-vault", "-o", path("msg.pgp"), path("plain")], home: home)
        #expect(encrypted.status == 0, "\(encrypted.stderr)")
        let decrypted = try await pgp(["decrypt", "-o", path("out"), path("msg.pgp")], home: home)
        #expect(decrypted.status == 0, "\(decrypted.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("out"))) == Data("for Ann's vault key only".utf8))

        // Importing the public certificate again keeps the secret key.
        let exported = try await pgp(["keys", "export", fingerprint, "-o", path("ann.asc")], home: home)
        #expect(exported.status == 0, "\(exported.stderr)")
        let imported = try await pgp(["keys", "import", path("ann.asc")], home: home)
        #expect(imported.status == 0, "\(imported.stderr)")
        let relisted = try await pgp(["keys", "list"], home: home)
        #expect(relisted.stdout.contains("sec"), "a certificate replaced the secret key: \(relisted.stdout)")

        // --keyring still means a separate directory, which knows nothing of the vault's keys.
        // Listing one that is not there says so, and makes nothing there (a mistyped path once became a keyring).
        let standalone = try await ParleyBinary.runDetached(["pgp", "keys", "list", "--keyring", path("keyring")])
        #expect(standalone.status == 1)
        #expect(!standalone.stdout.contains(fingerprint))
        #expect(standalone.stderr.contains("there is no keyring at \(path("keyring")): check the path"), "\(standalone.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("keyring")))
        try FileManager.default.createDirectory(atPath: path("keyring"), withIntermediateDirectories: false)
        let empty = try await ParleyBinary.runDetached(["pgp", "keys", "list", "--keyring", path("keyring")])
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout.contains("No keys in \(path("keyring"))"))

        // A wrong --account is refused with the reason, and changes nothing.
        let wrong = try await ParleyBinary.runDetached(["pgp", "keys", "list", "--home", home.path, "--account", "eve@example.org"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("eve@example.org"), "\(wrong.stderr)")
    }

    @Test func aHomeWithoutAnAccountUsesItsPgpDirectory() async throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data((passphrase + "\n").utf8).write(to: URL(fileURLWithPath: path("pass")))
        let home = root.appendingPathComponent("empty-home")
        let generated = try await pgp(["keys", "generate", "--user-id", "Nobody <nobody@example.org>"], home: home)
        #expect(generated.status == 0, "\(generated.stderr)")
        let secrets = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("pgp/secret").path)
        #expect(secrets.count == 1 && secrets[0].hasSuffix(".asc"), "\(secrets)")
    }
}
