import Foundation
import ParleyClient
import ParleyCrypto
import Testing

/// A connected device reads new messages from the envelopes pushed in `new_message` (docs/API.md §6.1), on a
/// server with its default limits; a proxy in between counts the requests it sends.
@Suite("Client: messages pushed in their notification")
struct PushedMessageTests {
    @Test("short messages are read from the notification without a fetch; a long one is fetched; each is read once, and the cursor never skips one")
    func pushedMessagesNeedNoFetch() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let proxy = try LoginHoldingProxy(upstream: harness.server.port, hold: .zero)
        defer { proxy.stop() }
        let bob = try ParleyClient.create(
            home: harness.home("bob"), email: "bob@example.org", displayName: "Bob",
            server: ServerAddress(host: "127.0.0.1", port: proxy.port), pin: nil,
            reconnectPolicy: ReconnectPolicy(initial: 0.2, maximum: 1))
        try await bob.registration.register(password: "correct horse bob", envelopeIterations: KeyEnvelope.minimumSealIterations)
        try await bob.registration.confirm(code: try #require(harness.server.latestCode(for: "bob@example.org")))
        try await bob.connect()
        let chat = try await ann.startConversation(with: "bob@example.org").id
        let first = try #require(try await ann.send("the first, which makes the session", to: chat).message)
        try await eventually("bob has the first") { try bob.history.message(first.id)?.text != nil }
        try await bob.requests.accept(chat)
        try await eventually("the first is confirmed") { try ann.history.message(first.id)?.deliveredTo.isEmpty == false }

        let fetchesBefore = proxy.requests("get_messages")
        var sent: [Int64] = []
        for index in 0..<5 {
            sent.append(try #require(try await ann.send("pushed \(index)", to: chat).message).id)
        }
        try await eventually("bob has the five") {
            for id in sent where try bob.history.message(id)?.text == nil { return false }
            return true
        }
        try await eventually("all five confirmed") {
            for id in sent where try ann.history.message(id)?.deliveredTo.isEmpty != false { return false }
            return true
        }
        #expect(proxy.requests("get_messages") == fetchesBefore, "short messages came in their notifications")

        // A long message (its envelope past the push limit) is a hint and is fetched; a short one right after it
        // is pushed, yet the long one is not skipped by the cursor.
        let long = String(repeating: "long text ", count: 600)
        let longID = try #require(try await ann.send(long, to: chat).message).id
        let after = try #require(try await ann.send("right after the long one", to: chat).message).id
        try await eventually("bob has both") {
            let longText = try bob.history.message(longID)?.text, afterText = try bob.history.message(after)?.text
            return longText == long && afterText == "right after the long one"
        }
        #expect(proxy.requests("get_messages") > fetchesBefore)
        // A fresh sync finds nothing new, and nothing was stored twice.
        #expect(try await bob.sync().isEmpty)
        let texts = try bob.history.messages(in: chat).map(\.text)
        #expect(texts.count == 8 && Set(texts).count == 8, "\(texts)")
        await ann.disconnect()
        await bob.disconnect()
        try await harness.stop()
    }
}
