import Foundation
@testable import ParleyMail
import ParleyTestSupport
import Testing

/// `parley mail`'s sync against a real Dovecot on its default settings: incremental, flags and expunges
/// followed, never marking mail read, a renumbered folder fetched again, and nothing readable at rest.
@Suite(.serialized) struct MailSyncTests {
    let fixture: MailFixture

    init() throws {
        fixture = try MailFixture()
    }

    @Test func aSecondSyncFetchesOnlyWhatIsNewAndFollowsFlagsAndDeletions() async throws {
        let store = try fixture.store()
        try fixture.deliver(["one", "two", "three"])
        let first = try await fixture.sync(store)
        #expect(first.fetched == 3)
        #expect(try store.list(folder: "INBOX", unreadOnly: false).map(\.summary.subject) == ["three", "two", "one"])

        try fixture.deliver(["four", "five"])
        try fixture.dovecot.doveadm(["flags", "add", "-u", MailFixture.ann, "\\Seen", "mailbox", "INBOX", "uid", "1"])
        try fixture.dovecot.doveadm(["expunge", "-u", MailFixture.ann, "mailbox", "INBOX", "uid", "2"])
        let second = try await fixture.sync(store)
        #expect(second.fetched == 2)
        #expect(second.flagsChanged == 1)
        #expect(second.removed == 1)
        let listed = try store.list(folder: nil, unreadOnly: false)
        #expect(Set(listed.compactMap(\.summary.subject)) == ["one", "three", "four", "five"])
        #expect(listed.first { $0.summary.subject == "one" }?.isSeen == true)
        #expect(try store.list(folder: nil, unreadOnly: true).count == 3)

        let third = try await fixture.sync(store)
        #expect(third == MailSync.Report(folders: 1))
    }

    @Test func syncingNeverMarksMailRead() async throws {
        let store = try fixture.store()
        try fixture.deliver(["unread"])
        _ = try await fixture.sync(store)
        let flags = try fixture.dovecot.doveadm(["fetch", "-u", MailFixture.ann, "flags", "mailbox", "INBOX", "all"])
        #expect(!flags.contains("\\Seen"), "BODY.PEEK must leave \\Seen alone: \(flags)")
        let stored = try store.message(try #require(store.list(folder: "INBOX", unreadOnly: false).first).id)
        #expect(String(decoding: stored.raw, as: UTF8.self).contains("Subject: unread"))
    }

    @Test func mailReadHereIsMarkedReadOnTheServerAtTheNextSync() async throws {
        let store = try fixture.store()
        try fixture.deliver(["read me", "not yet"])
        _ = try await fixture.sync(store)
        let readMe = try #require(store.list(folder: "INBOX", unreadOnly: false).first { $0.summary.subject == "read me" })
        try store.markSeen(readMe.id)
        #expect(try store.list(folder: nil, unreadOnly: true).map(\.summary.subject) == ["not yet"])

        let report = try await fixture.sync(store)
        #expect(report.markedRead == 1)
        let flags = try fixture.dovecot.doveadm(["fetch", "-u", MailFixture.ann, "uid flags", "mailbox", "INBOX", "all"])
        #expect(flags.contains("uid: \(readMe.uid)\nflags: \\Seen"), "\(flags)")
        #expect(try await fixture.sync(store).markedRead == 0)
        #expect(try store.list(folder: nil, unreadOnly: true).count == 1)
    }

    @Test func aFolderWithANewUIDValidityIsFetchedAgain() async throws {
        let store = try fixture.store()
        try fixture.dovecot.doveadm(["mailbox", "create", "-u", MailFixture.ann, "Archive"])
        try fixture.deliver(["old 1", "old 2"], folder: "Archive")
        #expect(try await fixture.sync(store, folder: "Archive").fetched == 2)

        try fixture.dovecot.doveadm(["mailbox", "delete", "-u", MailFixture.ann, "Archive"])
        // Dovecot's UIDVALIDITY is a timestamp: wait for the next second so the new folder's differs.
        try await Task.sleep(for: .seconds(1.1))
        try fixture.dovecot.doveadm(["mailbox", "create", "-u", MailFixture.ann, "Archive"])
        try fixture.deliver(["new 1"], folder: "Archive")
        let report = try await fixture.sync(store, folder: "Archive")
        #expect(report.reset == ["Archive"])
        #expect(try store.list(folder: "Archive", unreadOnly: false).map(\.summary.subject) == ["new 1"])
    }

    @Test func everyFolderIsSyncedAndAnUnknownOneIsNamed() async throws {
        let store = try fixture.store()
        try fixture.dovecot.doveadm(["mailbox", "create", "-u", MailFixture.ann, "Work"])
        try fixture.deliver(["in inbox"])
        try fixture.deliver(["at work"], folder: "Work")
        let report = try await fixture.sync(store)
        #expect(report.folders == 2)
        #expect(try store.folders().map(\.name).sorted() == ["INBOX", "Work"])
        await #expect(throws: MailboxError.self) { try await fixture.sync(store, folder: "Nope") }
    }

    @Test func nothingReadableIsLeftOnDisk() async throws {
        let store = try fixture.store()
        try fixture.dovecot.save(MailFixture.message("Quarterly secret subject", body: "the body nobody else reads"), user: MailFixture.ann)
        _ = try await fixture.sync(store)
        let directory = MailStore.directory(home: fixture.home.url, email: MailFixture.ann)
        var everything = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            everything += (try? Data(contentsOf: directory.appendingPathComponent(name))) ?? Data()
            let mode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name) is \(String(mode ?? 0, radix: 8))")
        }
        for secret in ["Quarterly secret subject", "the body nobody else reads", MailFixture.password, "bob@example.org"] {
            #expect(everything.range(of: Data(secret.utf8)) == nil, "\(secret) is readable on disk")
        }
    }
}
