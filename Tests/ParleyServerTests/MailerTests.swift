import Foundation
import Logging
import NIOCore
import NIOPosix
import ParleyServer
import ParleyTestSupport
import Testing

/// The SMTP mailer against a real SMTP server (aiosmtpd), and against a hostile one.
@Suite("SMTP mailer", .serialized)
struct MailerTests {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static var logger: Logger { var logger = Logger(label: "test.mailer"); logger.logLevel = .critical; return logger }

    @Test("STARTTLS, AUTH PLAIN and delivery: the code arrives, headers are right, the password never leaks into errors")
    func deliversOverStartTLS() async throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let certificate = try TestCertificate.make(in: root)
        let sink = try await SMTPSink.start(directory: root, tls: "starttls", certificate: certificate, login: ("parley", "s3cret pass"))
        defer { sink.stop() }
        var configuration = SMTPConfiguration(
            host: "127.0.0.1", port: sink.port, security: .startTLS, from: "codes@parley.example", username: "parley",
            password: "s3cret pass", trustedCertificatesFile: certificate.cert)
        let mailer = try SMTPMailer(configuration: configuration, logger: Self.logger)
        try await mailer.verify()
        try await mailer.send(code: "04811234", to: "ann@example.org")
        let message = try #require(sink.messages.first)
        #expect(message.contains("To: <ann@example.org>"))
        #expect(message.contains("From: Parley <codes@parley.example>"))
        #expect(message.contains("Your Parley verification code is 04811234."))

        configuration.password = "wrong password"
        let refused = try SMTPMailer(configuration: configuration, logger: Self.logger)
        await #expect { try await refused.verify() } throws: { error in
            guard case SMTPError.refused(_, let code, _) = error else { return false }
            return code == 535 && !"\(error)".contains("wrong password") && !"\(error)".contains("d3Jvbmc")
        }
        // A certificate from another CA: TLS fails before the password is sent.
        let other = try TestCertificate.make(in: root, name: "other")
        configuration.password = "s3cret pass"
        configuration.trustedCertificatesFile = other.cert
        await #expect(throws: SMTPError.self) { try await SMTPMailer(configuration: configuration, logger: Self.logger).verify() }
        #expect(sink.messages.count == 1)
    }

    @Test("implicit TLS (port 465 style) delivers too")
    func deliversOverImplicitTLS() async throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let certificate = try TestCertificate.make(in: root)
        let sink = try await SMTPSink.start(directory: root, tls: "tls", certificate: certificate)
        defer { sink.stop() }
        let mailer = try SMTPMailer(
            configuration: SMTPConfiguration(host: "127.0.0.1", port: sink.port, security: .tls, from: "codes@parley.example",
                                             trustedCertificatesFile: certificate.cert),
            logger: Self.logger)
        try await mailer.send(code: "11112222", to: "bob@example.org")
        #expect(sink.messages.first?.contains("11112222") == true)
    }

    @Test("refusals: no TLS for a password, injected addresses, nobody listening")
    func refusals() async throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sink = try await SMTPSink.start(directory: root)
        defer { sink.stop() }
        let plain = SMTPConfiguration(host: "127.0.0.1", port: sink.port, security: .none, from: "codes@parley.example")
        let mailer = try SMTPMailer(configuration: plain, logger: Self.logger)
        for hostile in ["ann@example.org\r\nBcc: eve@example.org", "ann@example.org>\r\nRCPT TO:<eve@example.org", "änn@example.org", "a b@example.org"] {
            await #expect(throws: SMTPError.self) { try await mailer.send(code: "1", to: hostile) }
        }
        #expect(sink.messages.isEmpty)
        var withPassword = plain
        withPassword.username = "parley"
        withPassword.password = "never in clear"
        await #expect { try await SMTPMailer(configuration: withPassword, logger: Self.logger).verify() } throws: { error in
            "\(error)".contains("without TLS") && !"\(error)".contains("never in clear")
        }
        #expect(throws: SMTPError.self) { try SMTPMailer(configuration: SMTPConfiguration(host: "127.0.0.1", port: 1, from: "no-at-sign"), logger: Self.logger) }
        let nobody = SMTPConfiguration(host: "127.0.0.1", port: 1, security: .none, from: "codes@parley.example", timeoutSeconds: 2)
        await #expect { try await SMTPMailer(configuration: nobody, logger: Self.logger).verify() } throws: { error in
            guard case SMTPError.unreachable = error else { return false }
            return true
        }
        // Plain delivery still works after all that.
        try await mailer.send(code: "55556666", to: "ann@example.org")
        #expect(sink.messages.count == 1)
    }

    @Test("a hostile mail server: garbage, an endless line, silence → clear errors, no hang")
    func hostileServer() async throws {
        for (reply, expected) in [("HELLO THERE\r\n", "not SMTP"), (String(repeating: "2", count: 10_000), "not SMTP"),
                                  ("220-only continuation lines\r\n", "in time"), ("554 go away\r\n", "refused")] {
            let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .childChannelInitializer { channel in
                    channel.writeAndFlush(ByteBuffer(string: reply), promise: nil)
                    return channel.eventLoop.makeSucceededVoidFuture()
                }
                .bind(host: "127.0.0.1", port: 0).get()
            let port = try #require(server.localAddress?.port)
            let configuration = SMTPConfiguration(host: "127.0.0.1", port: port, security: .none, from: "codes@parley.example", timeoutSeconds: 5)
            await #expect { try await SMTPMailer(configuration: configuration, logger: Self.logger).verify() } throws: { error in
                "\(error)".contains(expected)
            }
            try await server.close()
        }
    }
}

/// `parley server --smtp …` as an operator runs it.
@Suite("parley server with a mailer", .serialized)
struct ServerMailerTests {
    @Test("codes are e-mailed and confirm the account; a mailer that cannot deliver stops the start")
    func registrationByMail() async throws {
        let root = try MailerTests.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sink = try await SMTPSink.start(directory: root)
        defer { sink.stop() }
        let server = try await ServerProcess.start(data: root.appendingPathComponent("data"), mailer: [
            "--smtp", "127.0.0.1:\(sink.port)", "--smtp-security", "none", "--smtp-from", "codes@parley.example",
            "--registration", "open",   // off --dev the default is invite (InviteCommandTests); this test is about mail
        ])
        defer { server.killWithoutWaiting() }
        let socket = try LineSocket(port: server.port)
        let ann = TestAccount("ann@example.org")
        #expect(try await socket.call("register", ann.registerFields).ok)
        let message = try #require(sink.messages.first)
        let code = try #require(message.firstMatch(of: /verification code is (\d{8})\./)?.1)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("data/dev-codes.log").path))
        #expect(try await socket.call("register_confirm", ["email": ann.email, "code": String(code)]).ok)

        // Nobody listening at the mail address: the server refuses to start, and says why.
        let refused = try await ServerProcess.runToExit([
            "server", "--listen", "127.0.0.1:0", "--data", root.appendingPathComponent("other").path,
            "--smtp", "127.0.0.1:1", "--smtp-security", "none", "--smtp-from", "codes@parley.example",
        ])
        #expect(refused.0 != 0)
        #expect(refused.1.contains("cannot deliver"), "\(refused.1)")
    }
}
