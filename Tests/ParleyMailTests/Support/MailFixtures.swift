import Foundation
@testable import ParleyMail
import ParleyTestSupport

/// A Dovecot with Ann's mailbox and a fresh Parley home holding her mail account.
struct MailFixture {
    static let ann = "ann@example.org"
    static let password = "ann-imap-secret"

    let dovecot: Dovecot
    let home: TemporaryDirectory

    init() throws {
        dovecot = try Dovecot(users: [Self.ann: Self.password])
        home = try TemporaryDirectory("parley-mail-home")
    }

    /// Ann's settings for the TLS port, trusting the test certificate.
    func settings(security: MailServer.Security = .tls, port: Int? = nil, password: String = MailFixture.password) -> MailAccountSettings {
        var server = MailServer(host: "127.0.0.1", port: port ?? (security == .tls ? dovecot.imapsPort : dovecot.imapPort), security: security)
        server.trustedCertificatesFile = dovecot.certificate
        return MailAccountSettings(email: Self.ann, imap: server, username: Self.ann, password: password)
    }

    func store(_ settings: MailAccountSettings? = nil) throws -> MailStore {
        try MailStore.create(home: home.url, settings: settings ?? self.settings(), pin: nil)
    }

    /// A plain message with a subject and body.
    static func message(_ subject: String, body: String = "Hello", from: String = "Bob <bob@example.org>") -> String {
        "From: \(from)\nTo: \(ann)\nSubject: \(subject)\nDate: Thu, 26 Nov 2026 09:00:00 +0000\nMessage-ID: <\(UUID().uuidString)@example.org>\n\n\(body)\n"
    }

    func deliver(_ subjects: [String], folder: String = "INBOX") throws {
        for subject in subjects { try dovecot.save(Self.message(subject), user: Self.ann, folder: folder) }
    }

    func sync(_ store: MailStore, folder: String? = nil) async throws -> MailSync.Report {
        try await MailThread.run { () throws(MailboxError) in try MailSync(store: store).run(folder: folder) }
    }
}
