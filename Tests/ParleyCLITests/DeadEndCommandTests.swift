import Foundation
import ParleyClient
import ParleyServer
import ParleyTestSupport
import Testing

/// Dead ends a new user met (issue 21 item 10): a registration that failed or whose code was lost can simply be
/// run again, and the wipe after ten wrong PINs says what comes back.
@Suite("parley dead ends: retrying a registration, the wipe after wrong PINs", .serialized, .offThePool)
struct DeadEndCommandTests {
    static func register(home: URL, server: [String], password: String = "a long enough password") async throws -> ParleyBinary.Result {
        try await ParleyBinary.runDetached(
            ["account", "register", "--home", home.path, "--email", "ann@example.org", "--name", "Ann"] + server,
            environment: ["PARLEY_PASSWORD": password])
    }

    @Test func aWrongPinUnreachableServerOrShortPasswordDoesNotWedgeTheHome() async throws {
        let scratch = try TemporaryDirectory("parley-register-retry")
        let root = scratch.url
        let (cert, key) = try TestCertificate.make(in: root, name: "server")
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("data")) {
            $0.tlsCertificatePath = cert
            $0.tlsKeyPath = key
        }
        let home = root.appendingPathComponent("home")
        let address = "127.0.0.1:\(server.port)"
        let wrongPin = Data(repeating: 7, count: 32).base64EncodedString()

        // Each of these fails, and each leaves the home as it was: no account, nothing to log out of.
        let failures: [(arguments: [String], password: String)] = [
            (["--server", address, "--pin-key", wrongPin], "a long enough password"),
            (["--server", "127.0.0.1:1"], "a long enough password"),
            (["--server", address, "--pin-key", try ServerAddress.keyPin(ofCertificatePEM: cert)], "short"),
        ]
        for failure in failures {
            let failed = try await Self.register(home: home, server: failure.arguments, password: failure.password)
            #expect(failed.status != 0, "\(failure.arguments)")
            #expect(failed.stderr.contains("run the command again"), "\(failed.stderr)")
            #expect(!failed.stderr.contains(failure.password))
            let status = try await ParleyBinary.runDetached(["account", "status", "--home", home.path])
            #expect(status.status != 0 && !status.stdout.contains("not confirmed"), "\(status.stdout)")
            let logout = try await ParleyBinary.runDetached(["account", "logout", "--home", home.path])
            #expect(logout.status != 0 && !logout.stderr.contains("not confirmed"), "\(logout.stderr)")
        }

        // The same command with the right key now registers, and the code confirms the account.
        let pin = try ServerAddress.keyPin(ofCertificatePEM: cert)
        let registered = try await Self.register(home: home, server: ["--server", address, "--pin-key", pin])
        #expect(registered.status == 0, "\(registered.stderr)")
        #expect(!registered.stderr.contains("already has an account"))
        let code = try #require(server.latestCode(for: "ann@example.org"))
        let confirmed = try await ParleyBinary.runDetached(["account", "confirm", "--home", home.path, code])
        #expect(confirmed.status == 0 && confirmed.stdout.contains("Confirmed: ann@example.org"), "\(confirmed.stderr)")
        try await server.stop()
    }

    @Test func tenWrongPINsSayExactlyWhatSigningInAgainBringsBack() async throws {
        let scratch = try TemporaryDirectory("parley-wiped")
        let server = try await EmbeddedServer.start(dataDirectory: scratch.url.appendingPathComponent("data"))
        let home = scratch.url.appendingPathComponent("ann")
        try await CLIAccounts.register("ann", home: home, server: server)
        #expect(try await ParleyBinary.runDetached(["account", "set-pin", "--home", home.path], environment: ["PARLEY_NEW_PIN": "5821"]).status == 0)
        var last = ParleyBinary.Result(status: 0, stdout: "", stderr: "")
        for _ in 1...10 {
            last = try await ParleyBinary.runDetached(["account", "unlock", "--home", home.path], environment: ["PARLEY_PIN": "1234"])
            #expect(last.status != 0)
        }
        #expect(last.stderr.contains("too many wrong PINs: this account's data on this device was erased"), "\(last.stderr)")
        #expect(last.stderr.contains("'parley account login'") && last.stderr.contains("brings back your keys"))
        #expect(last.stderr.contains("no key change") && last.stderr.contains("message history comes back only if another device"))
        #expect(last.stderr.contains("'parley account pair'") && !last.stderr.contains("restore it from the server"))
        try await server.stop()
    }

    @Test func registeringAgainReplacesAnUnconfirmedAccountButNeverAConfirmedOne() async throws {
        let scratch = try TemporaryDirectory("parley-register-again")
        let server = try await EmbeddedServer.start(dataDirectory: scratch.url.appendingPathComponent("data"))
        let home = scratch.url.appendingPathComponent("home")
        let address = ["--server", "127.0.0.1:\(server.port)"]
        let first = try await Self.register(home: home, server: address)
        #expect(first.status == 0, "\(first.stderr)")
        let firstCode = try #require(server.latestCode(for: "ann@example.org"))
        // The code was lost: registering again in the same home starts afresh instead of "already has an account".
        let again = try await Self.register(home: home, server: address)
        #expect(again.status == 0 && again.stderr.contains("Replacing the unconfirmed registration of ann@example.org"), "\(again.stderr)")
        let code = try #require(server.latestCode(for: "ann@example.org"))
        #expect(code != firstCode)
        let confirmed = try await ParleyBinary.runDetached(["account", "confirm", "--home", home.path, code])
        #expect(confirmed.status == 0 && confirmed.stdout.contains("Confirmed: ann@example.org"), "\(confirmed.stderr)")
        let confirmedAgain = try await Self.register(home: home, server: address)
        #expect(confirmedAgain.status != 0 && confirmedAgain.stderr.contains("already has an account in this home"), "\(confirmedAgain.stderr)")
        let status = try await ParleyBinary.runDetached(["account", "status", "--home", home.path])
        #expect(status.status == 0 && status.stdout.contains("ann@example.org (id "), "\(status.stdout)\(status.stderr)")
        try await server.stop()
    }
}
