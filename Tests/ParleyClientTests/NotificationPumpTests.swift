import NIOConcurrencyHelpers
import ParleyWire
import Testing
@testable import ParleyClient

/// The pump hands notifications on in order and holds a bounded backlog: past its count or its bytes it refuses
/// (the connection then closes and the reconnect catches up), and takes more once the account has caught up.
@Suite struct NotificationPumpTests {
    @Test func itRefusesPastTheCountAndTheBytesAndTakesMoreOnceDrained() async throws {
        let latch = Latch()
        let seen = NIOLockedValueBox<[String]>([])
        let pump = NotificationPump(handler: { event, _ in
            await latch.wait()
            seen.withLockedValue { $0.append(event) }
        }, maximumCount: 3, maximumBytes: 100)

        #expect(pump.push("a", [:], lineBytes: 60))
        #expect(!pump.push("too-many-bytes", [:], lineBytes: 41))
        #expect(pump.push("b", [:], lineBytes: 40))
        #expect(pump.push("c", [:], lineBytes: 0))
        #expect(!pump.push("too-many", [:], lineBytes: 0))
        #expect(!pump.push("one-line-over-all", [:], lineBytes: 101))

        await latch.release()
        try await waitUntil { seen.withLockedValue { $0.count } == 3 }
        #expect(seen.withLockedValue { $0 } == ["a", "b", "c"])
        #expect(pump.push("d", [:], lineBytes: 100))
        try await waitUntil { seen.withLockedValue { $0.count } == 4 }
        #expect(seen.withLockedValue { $0 }.last == "d")
    }

    func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }
}
