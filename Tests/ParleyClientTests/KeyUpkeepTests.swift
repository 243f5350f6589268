@testable import ParleyClient
import ParleyCrypto
import ParleyWire
import Synchronization
import Testing

/// A wall clock a test moves forward.
final class ForwardClock: WallClock, Sendable {
    private let offset = Mutex<Int64>(0)
    func now() -> Int64 { SystemWallClock().now() + offset.withLock { $0 } }
    func advance(days: Int64) { offset.withLock { $0 += days * 86_400_000 } }
}

/// The key upkeep a connect runs, against a real server with its defaults.
@Suite("Key upkeep")
struct KeyUpkeepTests {
    @Test("a week later the signed prekeys rotate on connect — with one-time prekeys to spare, so none are sent — and the login holds")
    func weeklyRotationWithoutReplenishing() async throws {
        let harness = try await ClientHarness.start()
        let clock = ForwardClock()
        let ann = try await harness.person("ann", dependencies: ClientDependencies(clock: clock))
        let bob = try await harness.person("bob")
        let annID = try #require(await ann.accountID)
        let before = try await bob.call(API.GetKeyBundle.self, .init(accountID: annID)).devices
        let remaining = try await ann.call(API.GetPreKeyCount.self).count
        #expect(remaining >= 20, "this test needs enough one-time prekeys that none are sent with the rotation")

        await ann.disconnect()
        clock.advance(days: 8)
        // Before the wire was typed, this upkeep sent `ensure_prekeys` without `one_time_prekeys`: the server
        // refused it (`missing_field`) and every connect failed for as long as the prekeys lasted.
        try await ann.connect()
        #expect(await ann.isConnected)
        let after = try await bob.call(API.GetKeyBundle.self, .init(accountID: annID)).devices
        #expect(after.map(\.signed.id) != before.map(\.signed.id), "the signed prekey was not rotated")
        #expect(after.map(\.pq.id) != before.map(\.pq.id), "the post-quantum prekey was not rotated")
        #expect(try await ann.call(API.GetPreKeyCount.self).count == remaining - 1, "only bob's fetch took one")

        // Messages still flow both ways on the rotated keys.
        let chat = try await bob.startConversation(with: "ann@example.org")
        _ = try await bob.send("after the rotation", to: chat.id)
        var arrived = false
        for _ in 0..<100 where !arrived {   // pushed to her connection, or fetched: either way within moments
            _ = try await ann.sync()
            arrived = try ann.history.messages(in: chat.id).contains { $0.text == "after the rotation" }
            if !arrived { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(arrived, "ann cannot read what bob sent after her rotation")
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }
}
