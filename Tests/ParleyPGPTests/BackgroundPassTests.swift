import Synchronization
import Testing
@testable import ParleyPGP

/// `BackgroundPass`: each job runs exactly once, on a background thread or on the owner's when none took
/// it yet, and its result or error reaches the owner in order.
@Suite struct BackgroundPassTests {
    struct Failure: Error, Equatable { let index: Int }

    @Test("results come back in order, errors are rethrown, and the pass goes on after one")
    func resultsAndErrors() throws {
        let pass = BackgroundPass<Int>()
        #expect(try pass.wait() == nil)
        var sum = 0
        for index in 1...2_000 {
            pass.start {
                if index.isMultiple(of: 97) { throw Failure(index: index) }
                // A little work, so that the background thread and the owner race for the claim.
                return (0..<(index % 50)).reduce(index) { $0 &+ $1 &* 0 }
            }
            if index.isMultiple(of: 97) {
                #expect(throws: Failure(index: index)) { try pass.wait() }
            } else {
                let result = try #require(try pass.wait())
                #expect(result == index)
                sum += result
            }
        }
        #expect(try pass.wait() == nil)
        #expect(sum == (1...2_000).filter { !$0.isMultiple(of: 97) }.reduce(0, +))
    }

    @Test("an abandoned job runs at most once, and the pass goes on")
    func abandonedJobs() throws {
        let pass = BackgroundPass<Int>()
        let runs = Mutex(0)
        for index in 1...500 {
            pass.start {
                runs.withLock { $0 += 1 }
                return index
            }
            pass.abandon()
            pass.start { -index }
            #expect(try pass.wait() == -index)
        }
        // Each abandoned job ran on a background thread or not at all; none ran twice.
        #expect(runs.withLock { $0 } <= 500)
        pass.abandon()
        #expect(try pass.wait() == nil)
    }
}

