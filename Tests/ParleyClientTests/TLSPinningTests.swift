import Foundation
import ParleyClient
import ParleyServer
import ParleyTestSupport
import Testing

@Suite("Client: TLS and key pinning")
struct TLSPinningTests {
    @Test func pinnedKeyConnectsAndAnyOtherKeyIsRefused() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-pin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let (cert, key) = try TestCertificate.make(in: root, name: "server")
        let (otherCert, _) = try TestCertificate.make(in: root, name: "other")
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("data")) {
            $0.tlsCertificatePath = cert
            $0.tlsKeyPath = key
        }
        let right = try ServerAddress.keyPin(ofCertificatePEM: cert)
        let wrong = try ServerAddress.keyPin(ofCertificatePEM: otherCert)
        #expect(right != wrong)

        func client(_ name: String, pin: String?, ca: String? = nil) throws -> ParleyClient {
            try ParleyClient.create(
                home: root.appendingPathComponent(name), email: "\(name)@example.org", displayName: name,
                server: ServerAddress(host: "127.0.0.1", port: server.port, tls: true, pinnedKeySHA256: pin, trustedCertificatesFile: ca),
                pin: nil)
        }
        let ann = try client("ann", pin: right)
        try await ann.registration.register(password: "password of ann", envelopeIterations: 210_000)
        try await ann.registration.confirm(code: try #require(server.latestCode(for: "ann@example.org")))
        try await ann.connect(reconnect: false)
        #expect(await ann.isConnected)
        await ann.disconnect()

        let mallory = try client("bob", pin: wrong)
        await #expect(throws: ClientError.pinMismatch) { try await mallory.registration.register(password: "password of bob") }

        let untrusted = try client("carol", pin: nil)
        await #expect(throws: ClientError.self) { try await untrusted.registration.register(password: "password of carol") }
        try await server.stop()
    }
}
