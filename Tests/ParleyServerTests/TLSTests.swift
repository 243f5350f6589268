import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import ParleyTestSupport
import Testing

@Suite("TLS", .serialized)
struct TLSTests {
    /// Connects with TLS trusting only `certificate`, sends one line, returns the first line back.
    static func tlsExchange(port: Int, certificate: String, line: String) async throws -> String {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))
        let context = try NIOSSLContext(configuration: configuration)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: nil))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: line + "\n"))
            var received = ByteBuffer()
            for try await var chunk in inbound {
                received.writeBuffer(&chunk)
                if let text = received.getString(at: 0, length: received.readableBytes), text.contains("\n") {
                    return String(text.prefix { $0 != "\n" })
                }
            }
            return ""
        }
    }

    @Test("with --tls-cert/--tls-key the server speaks TLS and refuses plain TCP")
    func tls() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (cert, key) = try TestCertificate.make(in: directory)
        let server = try await TestServer.start {
            $0.tlsCertificatePath = cert
            $0.tlsKeyPath = key
        }
        let reply = try await Self.tlsExchange(port: server.port, certificate: cert, line: #"{"type":"ping","request_id":"tls"}"#)
        #expect(reply.contains(#""ok":true"#))
        #expect(reply.contains(#""request_id":"tls""#))

        let plain = try server.connect()
        await plain.send(Array(#"{"type":"ping","request_id":"plain"}"#.utf8) + [0x0A])
        #expect(try await plain.readLine() == nil)
        try await server.stop()
    }

    @Test("a certificate without its key, or a bad PEM, stops start-up with a clear error")
    func badConfiguration() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (cert, _) = try TestCertificate.make(in: directory)
        await #expect(throws: (any Error).self) { try await TestServer.start { $0.tlsCertificatePath = cert } }
        let junk = directory.appendingPathComponent("junk.pem").path
        try Data("not a pem".utf8).write(to: URL(fileURLWithPath: junk))
        await #expect(throws: (any Error).self) {
            try await TestServer.start {
                $0.tlsCertificatePath = junk
                $0.tlsKeyPath = junk
            }
        }
    }
}
