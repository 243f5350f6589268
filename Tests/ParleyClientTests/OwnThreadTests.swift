import Foundation
import Synchronization
import Testing
@testable import ParleyClient

/// `OwnThread` runs blocking work beside Swift's cooperative pool, never on it.
@Suite struct OwnThreadTests {
    private struct Refused: Error, Equatable { let reason: String }

    @Test func returnsTheValueAndTheTypedError() async throws {
        let value = await OwnThread.run { 6 * 7 }
        #expect(value == 42)
        do {
            _ = try await OwnThread.run { () throws(Refused) -> Int in throw Refused(reason: "no") }
            Issue.record("the error did not come back")
        } catch {
            #expect(error == Refused(reason: "no"))
        }
    }

    /// More blocked pieces of work than the pool has threads, and the pool still runs a task: had `run` used the
    /// pool's threads, every one of them would be waiting on the gate and the task below could never start.
    @Test func blockedWorkLeavesThePoolFree() async throws {
        let blocked = ProcessInfo.processInfo.activeProcessorCount + 2
        let gate = DispatchSemaphore(value: 0)
        let opened = Atomic(false)
        let starved = Atomic(false)
        // If the pool is starved nothing async can open the gate, so a plain thread does after 20 s, and says so.
        Thread {
            Thread.sleep(forTimeInterval: 20)
            guard opened.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
            starved.store(true, ordering: .releasing)
            for _ in 0..<blocked { gate.signal() }
        }.start()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<blocked {
                group.addTask { await OwnThread.run { gate.wait(); return index } }
            }
            // Let the blocked pieces start, then ask the pool for one small task.
            try await Task.sleep(for: .milliseconds(200))
            let answer = await Task.detached { 1 }.value
            #expect(answer == 1)
            if opened.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
                for _ in 0..<blocked { gate.signal() }
            }
            var finished = Set<Int>()
            for try await index in group { finished.insert(index) }
            #expect(finished == Set(0..<blocked))
        }
        let poolWasStarved = starved.load(ordering: .acquiring)
        #expect(!poolWasStarved, "the pool ran nothing while work blocked on OwnThread")
    }
}
