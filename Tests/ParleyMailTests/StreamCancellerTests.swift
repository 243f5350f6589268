import Foundation
import NIOPosix
@testable import ParleyMail
import Testing

/// libetpan frees its stream inside LOGOUT (and QUIT, and a refused greeting) while the bridge's event loop may
/// still cancel it when the server hangs up: the canceller must have let go first. Before this, `parley mail send`
/// crashed under load in `mailstream_cancel` called from `channelInactive`, after QUIT.
@Suite struct StreamCancellerTests {
    @Test func logoutLetsGoOfTheStreamBeforeLibetpanClosesIt() async throws {
        let server = try HostileIMAPServer(.garbage)
        var settings = MailServer(host: "127.0.0.1", port: server.port, security: .tls)
        settings.trustedCertificatesFile = server.certificate
        let imap = settings
        let detachedAfterLogout = try await MailThread.run { () throws(MailboxError) -> (before: Bool, after: Bool) in
            let session = try IMAPSession(server: imap, group: MultiThreadedEventLoopGroup.singleton)
            try session.login(username: "ann@example.org", password: "secret")
            let before = session.bridge.canceller.isAttached
            session.logout()   // the server answers BYE and hangs up: the bridge cancels after its drain delay
            let after = session.bridge.canceller.isAttached
            session.bridge.canceller.cancel()   // what the event loop does then: harmless once detached
            Thread.sleep(forTimeInterval: 0.7)  // past the drain delay (500 ms), while the session still exists
            return (before, after)
        }
        #expect(detachedAfterLogout.before, "reads are cancellable while the session is open")
        #expect(!detachedAfterLogout.after, "the canceller still held the stream libetpan closed in LOGOUT")
    }
}
