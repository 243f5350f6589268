import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// Reaching a TLS server the wrong way names the TLS problem and what to pass, never "the connection dropped … try again".
@Suite("parley and TLS mistakes", .serialized, .offThePool)
struct TLSErrorCommandTests {
    @Test func plainToATLSPortAndUntrustedCertificatesSayWhatToPass() async throws {
        let scratch = try TemporaryDirectory("parley-tls-errors")
        let root = scratch.url
        let (cert, key) = try TestCertificate.make(in: root, name: "server")
        let (otherCert, _) = try TestCertificate.make(in: root, name: "other")
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("data")) {
            $0.tlsCertificatePath = cert
            $0.tlsKeyPath = key
        }
        func register(_ extra: [String]) async throws -> ParleyBinary.Result {
            try await ParleyBinary.runDetached(
                ["account", "register", "--home", root.appendingPathComponent("home").path, "--email", "ann@example.org", "--name", "Ann",
                 "--server", "127.0.0.1:\(server.port)"] + extra,
                environment: ["PARLEY_PASSWORD": "a long enough password"])
        }

        let plain = try await register([])
        #expect(plain.status != 0 && plain.stderr.contains("the server speaks TLS on this port: add --tls"), "\(plain.stderr)")
        #expect(plain.stderr.contains("--pin-key") && plain.stderr.contains("--ca"))
        let untrusted = try await register(["--tls"])
        #expect(untrusted.status != 0 && untrusted.stderr.contains("TLS certificate is not trusted on this machine"), "\(untrusted.stderr)")
        #expect(untrusted.stderr.contains("--pin-key BASE64") && untrusted.stderr.contains("--ca FILE"))
        let otherAuthority = try await register(["--ca", otherCert])
        #expect(otherAuthority.status != 0 && otherAuthority.stderr.contains("not trusted on this machine"), "\(otherAuthority.stderr)")
        for result in [plain, untrusted, otherAuthority] {
            #expect(!result.stderr.contains("connection dropped") && !result.stderr.contains("NIOSSL"), "\(result.stderr)")
        }
        try await server.stop()
    }
}
