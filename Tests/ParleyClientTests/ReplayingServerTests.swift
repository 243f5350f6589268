import Foundation
import ParleyClient
import ParleyCrypto
import Synchronization
import Testing

/// A server (a real one behind a tampering proxy) that serves the same page of messages again and again, always
/// saying more are waiting: the catch-up takes in what the page holds once and ends, instead of asking forever.
@Suite("Client: a server that replays a page of messages")
struct ReplayingServerTests {
    @Test("a page that does not move the cursor ends the catch-up; each message is kept once")
    func replayedPageEndsTheCatchUp() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let replay = Mutex<Data?>(nil)
        let proxy = try LoginHoldingProxy(upstream: harness.server.port, hold: .zero) { method, line in
            guard method == "get_messages", var answer = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                return line
            }
            // The first page that held messages, served again for every later request, always with more to come.
            let id = answer["request_id"]
            if let first = replay.withLock({ $0 }), let again = try? JSONSerialization.jsonObject(with: first) as? [String: Any] {
                answer = again
                answer["request_id"] = id
            } else if (answer["messages"] as? [Any])?.isEmpty == false {
                replay.withLock { $0 = Data(line) }
            }
            answer["has_more"] = true
            return Array((try? JSONSerialization.data(withJSONObject: answer)) ?? Data(line))
        }
        defer { proxy.stop() }
        let bob = try ParleyClient.create(
            home: harness.home("bob"), email: "bob@example.org", displayName: "Bob",
            server: ServerAddress(host: "127.0.0.1", port: proxy.port), pin: nil,
            reconnectPolicy: ReconnectPolicy(initial: 0.2, maximum: 1))
        try await bob.register(password: "correct horse bob", envelopeIterations: KeyEnvelope.minimumSealIterations)
        try await bob.confirm(code: try #require(harness.server.latestCode(for: "bob@example.org")))

        // Bob is away while Ann writes, so his catch-up fetches the three.
        let chat = try await ann.startConversation(with: "bob@example.org").id
        var sent: [Int64] = []
        for index in 0..<3 { sent.append(try #require(try await ann.send("while you were away \(index)", to: chat).message).id) }

        let finished = Mutex(false)
        let connecting = Task {
            try await bob.connect()
            finished.withLock { $0 = true }
        }
        try await eventually("the catch-up ends", seconds: 20) { finished.withLock { $0 } }
        connecting.cancel()
        #expect(proxy.requests("get_messages") <= 3, "asked \(proxy.requests("get_messages")) times")
        for id in sent { #expect(try bob.history.message(id)?.text.hasPrefix("while you were away") == true) }
        #expect(try bob.history.messages(in: chat).count == 3)
        await ann.disconnect()
        await bob.disconnect()
        try await harness.stop()
    }
}
