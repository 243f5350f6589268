import Foundation

/// A real SMTP server (aiosmtpd, from Debian's python3-aiosmtpd) that saves messages into a maildir.
public final class SMTPSink: Sendable {
    public let port: Int
    public let maildir: URL
    private let fixture: PythonFixture

    /// Starts the sink; `tls` is nil (plain), "starttls" or "tls", with the certificate files given.
    public init(directory: URL, tls: String? = nil, certificate: (cert: String, key: String)? = nil, login: (String, String)? = nil) throws {
        maildir = directory.appendingPathComponent("maildir")
        var arguments = ["--maildir", maildir.path]
        if let certificate { arguments += ["--cert", certificate.cert, "--key", certificate.key] }
        if tls == "tls" { arguments.append("--implicit-tls") }
        if let (user, password) = login { arguments += ["--user", user, "--password", password] }
        fixture = try PythonFixture("smtp_sink", arguments: arguments, hint: "is python3-aiosmtpd installed?")
        port = fixture.port
    }

    /// Starts a sink off the cooperative pool (`Blocking`).
    public static func start(directory: URL, tls: String? = nil, certificate: (cert: String, key: String)? = nil, login: (String, String)? = nil) async throws -> SMTPSink {
        try await Blocking.run { try SMTPSink(directory: directory, tls: tls, certificate: certificate, login: login) }
    }

    /// The messages delivered so far, as text.
    public var messages: [String] {
        let new = maildir.appendingPathComponent("new")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: new.path)) ?? []
        return names.sorted().compactMap { try? String(contentsOf: new.appendingPathComponent($0), encoding: .utf8) }
    }

    public func stop() { fixture.stop() }
}
