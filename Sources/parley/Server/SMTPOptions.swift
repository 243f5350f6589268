import ArgumentParser
import Foundation
import ParleyServer

/// `parley server`'s mail settings: where verification codes are e-mailed from.
struct SMTPOptions: ParsableArguments {
    @Option(name: .customLong("smtp"), help: ArgumentHelp("Mail server for verification codes, HOST:PORT.", valueName: "host:port"))
    var server: String?

    @Option(name: .customLong("smtp-security"), help: "none, starttls (default) or tls.")
    var security: String = "starttls"

    @Option(name: .customLong("smtp-from"), help: ArgumentHelp("Sender address of the e-mails.", valueName: "address"))
    var from: String?

    @Option(name: .customLong("smtp-user"), help: "SMTP login name (AUTH PLAIN, only over TLS).")
    var user: String?

    @Option(name: .customLong("smtp-password-file"), help: ArgumentHelp("File holding the SMTP password (first line).", valueName: "file"))
    var passwordFile: String?

    @Option(name: .customLong("smtp-ca"), help: ArgumentHelp("PEM CA certificates to trust for the mail server.", valueName: "file"))
    var ca: String?

    /// The configuration, or nil without `--smtp`. The password comes from a file or SMTP_PASSWORD,
    /// never from the command line (other users can read that).
    func configuration() throws -> SMTPConfiguration? {
        guard let server else { return nil }
        let (host, port) = try ListenAddress.validated(server)
        guard let security = SMTPConfiguration.Security(rawValue: security) else {
            throw ValidationError("--smtp-security must be none, starttls or tls")
        }
        guard let from else { throw ValidationError("--smtp needs --smtp-from ADDRESS (the sender of the codes)") }
        var password: String?
        if let passwordFile {
            guard let text = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                throw ValidationError("cannot read --smtp-password-file \(passwordFile)")
            }
            password = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        } else if let value = ProcessInfo.processInfo.environment["SMTP_PASSWORD"] {
            password = value
        }
        if user != nil, password == nil { throw ValidationError("--smtp-user needs --smtp-password-file or SMTP_PASSWORD") }
        return SMTPConfiguration(
            host: host, port: port, security: security, from: from, username: user, password: password,
            trustedCertificatesFile: ca, heloName: ProcessInfo.processInfo.hostName)
    }
}
