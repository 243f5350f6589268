import Foundation
@testable import ParleyMail
import ParleyTestSupport
import Testing

/// A mail server that misbehaves mid-sync gets a clear error; nothing is stored half; the client's memory
/// stays bounded by the byte budget, not by what the server announces (docs/MAIL.md §2).
@Suite struct HostileIMAPTests {
    let home: TemporaryDirectory

    init() throws {
        home = try TemporaryDirectory("parley-mail-hostile")
    }

    func sync(
        against server: HostileIMAPServer, security: MailServer.Security = .tls, home: URL? = nil
    ) async throws -> (MailStore, MailboxError?) {
        let home = home ?? self.home.url
        var imap = MailServer(host: "127.0.0.1", port: server.port, security: security)
        imap.trustedCertificatesFile = server.certificate
        let store = try MailStore.create(home: home, settings: MailAccountSettings(
            email: "ann@example.org", imap: imap, username: "ann@example.org", password: "secret"), pin: nil)
        do {
            _ = try await MailThread.run { () throws(MailboxError) in try MailSync(store: store).run() }
            return (store, nil)
        } catch {
            return (store, error)
        }
    }

    func expectNothingStored(_ store: MailStore) throws {
        #expect(try store.list(folder: nil, unreadOnly: false).isEmpty)
        #expect(try store.folderState("INBOX")?.syncedUID ?? 0 == 0)
    }

    @Test func aLiteralOfFourGigabytesIsCutOffAtTheBudget() async throws {
        // What the server's kernel took before the sync gave up bounds what the client can have read, and so
        // what it can hold: the FETCH's allowance (about 1 MiB here) plus the sockets' buffers, far below the 4 GB
        // announced. (The process's resident memory cannot tell: other tests allocate beside this one, an RFC 9580
        // Argon2 vector 2 GiB at a time, and made a 1 GiB bound on it fail.)
        let server = try HostileIMAPServer(.hugeLiteral)
        let (store, error) = try await sync(against: server)
        let flooded = server.floodedBytes
        guard case .serverSentTooMuch(let limit) = try #require(error) else { Issue.record("got \(String(describing: error))"); return }
        #expect(limit <= ByteBudget.largestCommand)
        #expect(flooded < 32 << 20, "the server got \(flooded >> 20) MiB in before the client stopped")
        // And nothing more once it stopped: closing TLS waits up to 5 s for the server's close_notify, and reading
        // on meanwhile let a flooding server push about 500 MiB into a client that had given up.
        try await Task.sleep(for: .seconds(2))
        #expect(server.floodedBytes < 32 << 20, "the server got \(server.floodedBytes >> 20) MiB in after the client stopped")
        try expectNothingStored(store)
    }

    @Test func aLineThatNeverEndsIsCutOffAtTheBudget() async throws {
        let server = try HostileIMAPServer(.endlessLine)
        let (store, error) = try await sync(against: server)
        guard case .serverSentTooMuch = try #require(error) else { Issue.record("got \(String(describing: error))"); return }
        try expectNothingStored(store)
    }

    @Test func bytesThatAreNotIMAPAreAClearError() async throws {
        let server = try HostileIMAPServer(.garbage)
        let (store, error) = try await sync(against: server)
        #expect(error == .malformedResponse(command: "FETCH"))
        #expect(error.map { "\($0)" } == "the mail server's answer to FETCH could not be read")
        try expectNothingStored(store)
    }

    @Test func aConnectionDroppedMidMessageStoresNothingOfIt() async throws {
        let server = try HostileIMAPServer(.dropMidFetch)
        let (store, error) = try await sync(against: server)
        let failure = try #require(error)
        guard case .connection = failure else { Issue.record("got \(failure)"); return }
        try expectNothingStored(store)
    }

    @Test func dataInjectedAfterStartTLSIsRefusedBeforeAnyPassword() async throws {
        let server = try HostileIMAPServer(.injectAfterStartTLS)
        let (store, error) = try await sync(against: server, security: .starttls)
        let failure = try #require(error)
        guard case .tls(let why) = failure else { Issue.record("got \(failure)"); return }
        #expect(why.contains("injection"))
        try expectNothingStored(store)
    }

    @Test func aGreetingThatIsNotIMAPIsAClearErrorEveryTime() async throws {
        let server = try HostileIMAPServer(.badGreeting)
        var imap = MailServer(host: "127.0.0.1", port: server.port, security: .tls)
        imap.trustedCertificatesFile = server.certificate
        let settings = MailAccountSettings(email: "ann@example.org", imap: imap, username: "ann@example.org", password: "secret")
        // Each failure tears its session down once: freeing it in the initializer too crashed the process.
        for _ in 0..<3 {
            await #expect(throws: MailboxError.malformedResponse(command: "the greeting")) {
                _ = try await MailThread.run { () throws(MailboxError) in try MailCheck.login(settings) }
            }
        }
    }
}
