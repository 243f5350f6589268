@testable import ParleyClient
import ParleyWire
import Testing

/// The pacing of file transfers under the server's request limit (issue 21, item 7).
@Suite("TransferPacer")
struct TransferPacerTests {
    let start = ContinuousClock.now

    @Test func spacesRequestsUnderTheServersDefaultLimit() {
        var pacer = TransferPacer()
        var now = start
        var sent: [ContinuousClock.Instant] = []
        for _ in 0..<200 {
            now += pacer.delay(now: now)
            sent.append(now)
            pacer.accepted()
        }
        // 200 requests take at least 199 / 40 s: never more than 50 in any second, whatever the round trip.
        #expect(sent.last! - sent.first! >= .seconds(199.0 / TransferPacer.defaultRate))
        for (index, instant) in sent.enumerated() {
            #expect(sent[index...].prefix { $0 < instant + .seconds(1) }.count <= 40)
        }
    }

    @Test func aSlowRoundTripIsNotMadeUpWithABurst() {
        var pacer = TransferPacer()
        var now = start
        _ = pacer.delay(now: now)
        now += .seconds(5)   // one answer took five seconds
        #expect(pacer.delay(now: now) == .zero)
        #expect(pacer.delay(now: now) == .seconds(1 / TransferPacer.defaultRate))
    }

    @Test func honoursRetryAfterAndSlowsDown() {
        var pacer = TransferPacer()
        let limited = WireError(.rateLimited, "too many requests; slow down and retry", details: ["retry_after": .number(3)])
        let wait = pacer.refused(limited, now: start)
        #expect(wait == .seconds(3))
        #expect(pacer.delay(now: start) == .seconds(3))
        #expect(pacer.rate == TransferPacer.defaultRate / 2)
    }

    @Test func withoutRetryAfterPausesGrowAndTheTransferGivesUpInTheEnd() {
        var pacer = TransferPacer()
        let limited = WireError(.rateLimited, "too many requests; slow down and retry")
        let first = pacer.refused(limited, now: start) ?? .zero
        let second = pacer.refused(limited, now: start) ?? .zero
        #expect(first > .zero && second > first)
        for _ in 2..<TransferPacer.maximumRefusals { _ = pacer.refused(limited, now: start) }
        #expect(pacer.rate == TransferPacer.minimumRate)
        #expect(pacer.refused(limited, now: start) == nil)
        pacer.accepted()
        #expect(pacer.refusalsInARow == 0)
    }
}
