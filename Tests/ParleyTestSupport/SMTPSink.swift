import Foundation

/// A real SMTP server (aiosmtpd, from Debian's python3-aiosmtpd) that saves messages into a maildir.
public final class SMTPSink: Sendable {
    public let port: Int
    public let maildir: URL
    private let process: Process

    struct Failed: Error, CustomStringConvertible { let description: String }

    /// Starts the sink; `tls` is nil (plain), "starttls" or "tls", with the certificate files given.
    public init(directory: URL, tls: String? = nil, certificate: (cert: String, key: String)? = nil, login: (String, String)? = nil) throws {
        maildir = directory.appendingPathComponent("maildir")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/test-fixtures/smtp_sink.py")
        var arguments = [script.path, "--maildir", maildir.path]
        if let certificate { arguments += ["--cert", certificate.cert, "--key", certificate.key] }
        if tls == "tls" { arguments.append("--implicit-tls") }
        if let (user, password) = login { arguments += ["--user", user, "--password", password] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try ProcessLaunch.start(process)
        self.process = process
        // The first line is "READY <port>" (blocking read: callers start the sink off the cooperative pool).
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("READY "), let port = Int(text.dropFirst(6)) else {
            process.terminate()
            throw Failed(description: "the SMTP sink did not start (is python3-aiosmtpd installed?): \(text)")
        }
        self.port = port
    }

    /// Starts a sink on a dispatch thread.
    public static func start(directory: URL, tls: String? = nil, certificate: (cert: String, key: String)? = nil, login: (String, String)? = nil) async throws -> SMTPSink {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try SMTPSink(directory: directory, tls: tls, certificate: certificate, login: login) })
            }
        }
    }

    /// The messages delivered so far, as text.
    public var messages: [String] {
        let new = maildir.appendingPathComponent("new")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: new.path)) ?? []
        return names.sorted().compactMap { try? String(contentsOf: new.appendingPathComponent($0), encoding: .utf8) }
    }

    /// Kills the sink. SIGKILL, because a child spawned from a test thread may inherit a mask that
    /// blocks SIGTERM, and then `terminate()` never ends it.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
