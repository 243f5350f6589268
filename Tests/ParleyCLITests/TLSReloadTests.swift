import Foundation
import ParleyTestSupport
import Testing

/// SIGHUP makes a running `parley server` read its TLS certificate and key again (docs/OPERATIONS.md §11), as
/// certbot's deploy hook or `systemctl reload` do: new connections get the new certificate, open ones stay,
/// and files that cannot be used leave the certificate in use.
@Suite("parley server: TLS reload on SIGHUP", .serialized, .offThePool)
struct TLSReloadTests {
    @Test("a renewed certificate is served after SIGHUP; the connection opened before it still answers")
    func renewal() async throws {
        let scratch = try TemporaryDirectory("parley-tls-reload")
        let root = scratch.url
        let old = try TestCertificate.make(in: root, name: "old")
        let new = try TestCertificate.make(in: root, name: "new")
        // The server reads the "live" paths, which a renewal overwrites (as certbot's live/ links do).
        let liveCert = root.appendingPathComponent("fullchain.pem").path, liveKey = root.appendingPathComponent("privkey.pem").path
        func install(_ pair: (cert: String, key: String)) throws {
            for (from, to) in [(pair.cert, liveCert), (pair.key, liveKey)] {
                try? FileManager.default.removeItem(atPath: to)
                try FileManager.default.copyItem(atPath: from, toPath: to)
            }
        }
        try install(old)
        let config = try ServerConfigFileTests.file("""
            listen: 127.0.0.1:0
            data: \(root.appendingPathComponent("data").path)
            dev: true
            tls-cert: \(liveCert)
            tls-key: \(liveKey)
            # The held connection never logs in; on a loaded machine this test's steps can outlast the default
            # 30 s login deadline, which is not what it is about.
            login-timeout: 300
            """, in: root)
        let server = try LiveProcess(["server", "--config", config])
        defer { server.kill() }
        let port = try #require(Int(try await server.waitFor(#"(?<=listening on tls://127\.0\.0\.1:)\d+"#)))

        let before = try OpenSSLClient(port: port, trusting: old.cert)
        defer { before.close() }
        #expect(try await before.ping("1")?.contains("\"ok\":true") == true)
        #expect(await OpenSSLClient.handshakeVerifies(port: port, trusting: old.cert))

        try install(new)
        server.send(SIGHUP)
        _ = try await server.waitFor("TLS certificate reloaded from \(NSRegularExpression.escapedPattern(for: liveCert))")
        #expect(await OpenSSLClient.handshakeVerifies(port: port, trusting: new.cert), "new connections get the new certificate")
        #expect(await !OpenSSLClient.handshakeVerifies(port: port, trusting: old.cert), "and no longer the old one")
        #expect(try await before.ping("2")?.contains("\"ok\":true") == true, "the connection made before the reload still answers")

        // A broken renewal (a key that does not match) is refused; the certificate in use stays, and so does the server.
        try FileManager.default.removeItem(atPath: liveKey)
        try FileManager.default.copyItem(atPath: old.key, toPath: liveKey)
        server.send(SIGHUP)
        _ = try await server.waitFor("the TLS certificate was not reloaded \\(cannot load the TLS certificate or key")
        #expect(await OpenSSLClient.handshakeVerifies(port: port, trusting: new.cert), "the certificate in use stays")
        #expect(try await before.ping("3")?.contains("\"ok\":true") == true)
        #expect(!server.text.contains("BEGIN"), "no key material in the log")
    }

    @Test("SIGHUP to a server without TLS is noted and does not stop it")
    func withoutTLS() async throws {
        let scratch = try TemporaryDirectory("parley-tls-reload")
        let config = try ServerConfigFileTests.file("listen: 127.0.0.1:0\ndata: \(scratch.url.appendingPathComponent("data").path)\ndev: true\n", in: scratch.url)
        let server = try LiveProcess(["server", "--config", config])
        defer { server.kill() }
        _ = try await server.waitFor(#"listening on tcp://127\.0\.0\.1:\d+"#)
        server.send(SIGHUP)
        _ = try await server.waitFor("SIGHUP: this server has no TLS certificate to reload")
        server.send(SIGTERM)
        #expect(await server.exitStatus() == 0)
    }
}
