import Foundation
import ParleyClient
import ParleyCrypto
import Testing

/// An address someone verified, deleted and registered again (or handed to another account by the server) is the
/// same person to the user, so the new account's key is treated as that person's changed key (docs/CLIENT.md §9):
/// a verified contact's replacement is blocked and held until accepted; a trusted one's is reported.
@Suite("Client: an address that moved to another account")
struct ReplacedAccountTrustTests {
    /// `ann` and `old` (as `email`) with a conversation and sessions both ways; returns the conversation.
    static func acquainted(_ ann: ParleyClient, _ old: ParleyClient, email: String) async throws -> Int64 {
        let chat = try await old.startConversation(with: "ann@example.org")
        let first = try #require(try await old.send("from the first account", to: chat.id).message)
        try await eventually("ann has the first account's message") { _ = try await ann.sync(); return try ann.history.message(first.id) != nil }
        _ = try await ann.requests.list()
        try await ann.requests.accept(chat.id)
        let reply = try #require(try await ann.send("hello", to: chat.id).message)
        try await eventually("the first account has ann's answer") { _ = try await old.sync(); return try old.history.message(reply.id) != nil }
        return chat.id
    }

    /// The account at `email` deleted, a new one registered under it, and its first message to ann read by her as
    /// a request (which is where she learns the address). Returns the new client, its conversation and message.
    static func replaced(_ old: ParleyClient, by name: String, email: String, in harness: ClientHarness, ann: ParleyClient)
        async throws -> (ParleyClient, Int64, Message)
    {
        try await old.deleteAccount()
        let new = try await harness.person(name, email: email)
        let chat = try await new.startConversation(with: "ann@example.org")
        let message = try #require(try await new.send("same address, new account", to: chat.id).message)
        try await eventually("ann has the new account's message") { _ = try await ann.sync(); return try ann.history.message(message.id) != nil }
        #expect(try await ann.requests.list().contains { $0.conversationID == chat.id && $0.email == email })
        return (new, chat.id, message)
    }

    @Test func aVerifiedAddressOnANewAccountIsBlockedAndHeldUntilAccepted() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let mal = try await harness.person("mal")
        let oldChat = try await Self.acquainted(ann, mal, email: "mal@example.org")
        let oldID = try #require(await mal.accountID)
        #expect(try await ann.trust.markVerified("mal@example.org").status == .verified)

        let (newMal, chat, _) = try await Self.replaced(mal, by: "malnew", email: "mal@example.org", in: harness, ann: ann)
        let newID = try #require(await newMal.accountID)
        #expect(newID != oldID)

        // Nothing goes to the new account until ann says so, in the new conversation or by address.
        await #expect(throws: ClientError.identityKeyChanged("mal@example.org")) { try await ann.send("are you mal?", to: chat) }
        let shown = try await ann.trust.verification(of: "mal@example.org")
        #expect(shown.accountID == newID, "the address means the account that has it now")
        #expect(shown.status == .unverified && shown.sendingBlocked)
        #expect(shown.contactFingerprint == newMal.fingerprint, "verify shows the key in use, not the one verified before")
        #expect(try ann.contacts.contact(oldID)?.replacedBy == newID)
        #expect(try ann.history.messages(in: chat).contains { $0.kind == Message.keyChangeKind })

        // What the new account sends meanwhile is held, unread.
        let later = try #require(try await newMal.send("a second message", to: chat).message)
        try await eventually("ann holds it") { _ = try await ann.sync(); return try ann.history.message(later.id)?.heldForKeyChange == true }
        #expect(try ann.history.message(later.id)?.text == "")

        #expect(try await ann.trust.acceptIdentityChange(of: "mal@example.org") == .trusted)
        try await eventually("the held message opens") { try ann.history.message(later.id)?.text == "a second message" }
        let answer = try #require(try await ann.send("welcome back", to: chat).message)
        try await eventually("the new account reads it") { _ = try await newMal.sync(); return try newMal.history.message(answer.id)?.text == "welcome back" }
        #expect(oldChat != chat)
        for client in [ann, newMal] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func aTrustedAddressOnANewAccountIsReportedNotBlocked() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let carol = try await harness.person("carol")
        _ = try await Self.acquainted(ann, carol, email: "carol@example.org")
        #expect(try ann.trust.status(of: try #require(await carol.accountID)) == .trusted)

        let (newCarol, chat, _) = try await Self.replaced(carol, by: "carolnew", email: "carol@example.org", in: harness, ann: ann)
        let newID = try #require(await newCarol.accountID)
        let sent = try #require(try await ann.send("hi again", to: chat).message)
        try await eventually("the new account reads it") { _ = try await newCarol.sync(); return try newCarol.history.message(sent.id) != nil }
        #expect(try ann.trust.status(of: newID) == .unverified)
        let warnings = try ann.history.messages(in: chat).filter { $0.kind == Message.keyChangeKind }
        #expect(warnings.count == 1, "one warning for one change")
        #expect(warnings.first?.text.contains("identity key of carol@example.org changed") == true)
        for client in [ann, newCarol] { await client.disconnect() }
        try await harness.stop()
    }
}
