import Foundation
import ParleyClient
import ParleyServer
import Testing

@Suite("Client: TLS and key pinning")
struct TLSPinningTests {
    static func makeCertificate(in directory: URL, name: String) throws -> (cert: String, key: String) {
        let cert = directory.appendingPathComponent("\(name).pem").path
        let key = directory.appendingPathComponent("\(name)-key.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw HarnessError("openssl failed") }
        return (cert, key)
    }

    @Test func pinnedKeyConnectsAndAnyOtherKeyIsRefused() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-pin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let (cert, key) = try Self.makeCertificate(in: root, name: "server")
        let (otherCert, _) = try Self.makeCertificate(in: root, name: "other")
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
        try await ann.register(password: "password of ann", envelopeIterations: 210_000)
        try await ann.confirm(code: try #require(server.latestCode(for: "ann@example.org")))
        try await ann.connect(reconnect: false)
        #expect(await ann.isConnected)
        await ann.disconnect()

        let mallory = try client("bob", pin: wrong)
        await #expect(throws: ClientError.pinMismatch) { try await mallory.register(password: "password of bob") }

        let untrusted = try client("carol", pin: nil)
        await #expect(throws: ClientError.self) { try await untrusted.register(password: "password of carol") }
        try await server.stop()
    }
}
