import Foundation
import ParleyClient
import ParleyServer
import Testing

/// The server's quota of undelivered messages (docs/API.md §6), as a sender's client meets it: a message sent by
/// hand is refused with the reason, a queued one waits instead of being dropped, and both go once the recipient
/// has fetched what waited.
@Suite("Client: the undelivered-messages quota")
struct UndeliveredQuotaTests {
    /// What the person is told when `send` is refused for the quota; nil when it went (any other error is thrown).
    static func quotaRefusal(_ send: () async throws(ClientError) -> SendOutcome) async throws -> String? {
        do {
            _ = try await send()
            return nil
        } catch {
            guard case .server(let refusal) = error, refusal.code == .quotaExceeded else { throw error }
            return "\(error)"
        }
    }

    @Test func aQueuedMessageWaitsForRoomInsteadOfBeingDropped() async throws {
        // A test of this limit: a few thousand bytes instead of 1 GiB.
        let harness = try await ClientHarness.start { $0.undeliveredQuota = 6_000 }
        let ann = try await harness.person("ann"), bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        await bob.disconnect()

        var sent: [String] = []
        var refusal: String?
        for index in 0..<40 {
            let text = "message \(index) while bob is away"
            refusal = try await Self.quotaRefusal { () async throws(ClientError) -> SendOutcome in try await ann.send(text, to: chat.id) }
            if refusal != nil { break }
            sent.append(text)
        }
        let reason = try #require(refusal, "forty messages never reached a 6,000-byte quota")
        #expect(reason.contains("waiting for delivery"), "\(reason)")
        #expect(sent.count >= 2)
        #expect(try await ann.pendingCount() == 0, "a message refused while the person watched is not kept")

        // Queued while offline, refused at the flush: it waits.
        await ann.disconnect()
        guard case .queued = try await ann.send("queued while full", to: chat.id) else {
            Issue.record("expected the message to be queued")
            return
        }
        try await ann.connect()
        #expect(try await ann.pendingCount() == 1, "a queued message refused for the quota was dropped")

        // Bob fetches what waited; Ann's next connection sends the queued message.
        try await bob.connect()
        try await eventually("bob has everything sent so far") { try bob.history.messages(in: chat.id).map(\.text) == sent }
        await ann.disconnect()
        try await ann.connect()
        try await eventually("ann's outbox drains") { try await ann.pendingCount() == 0 }
        try await eventually("bob receives the queued message") {
            try bob.history.messages(in: chat.id).map(\.text) == sent + ["queued while full"]
        }
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }
}
