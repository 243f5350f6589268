@testable import ParleyServer
import Testing

/// When the group commit starts its next commit (`CommitPacing`): at once after a commit of one write, and no sooner
/// than the interval after a commit of several.
@Suite("SQLite commit pacing")
struct CommitPacingTests {
    typealias Pacing = CommitPacing
    let start = ContinuousClock.now

    @Test("nothing waits before the first commit, nor after a commit of one write")
    func loneWritesNeverWait() {
        var pacing = Pacing()
        #expect(pacing.pause(at: start) == nil)
        pacing.started(at: start, count: 1)
        #expect(pacing.pause(at: start + .microseconds(10)) == nil, "one client writing one thing after another")
        pacing.started(at: start + .microseconds(10), count: 1)
        #expect(pacing.pause(at: start + .microseconds(20)) == nil)
    }

    @Test("after a commit of several writes the next waits out the rest of the interval, once")
    func severalWritesPaceTheNext() {
        var pacing = Pacing()
        pacing.started(at: start, count: 3)
        #expect(pacing.pause(at: start + .microseconds(500)) == Pacing.interval - .microseconds(500))
        #expect(pacing.pause(at: start + Pacing.interval) == nil, "after the wait the next commit starts, whatever it holds")
        pacing.started(at: start + Pacing.interval, count: 2)
        #expect(pacing.pause(at: start + Pacing.interval + .microseconds(1)) == Pacing.interval - .microseconds(1))
    }

    @Test("a commit that itself took longer than the interval leaves nothing to wait for")
    func slowCommitsAreNotSlowedFurther() {
        var pacing = Pacing()
        pacing.started(at: start, count: 40)
        #expect(pacing.pause(at: start + Pacing.interval) == nil)
        #expect(pacing.pause(at: start + Pacing.interval * 3) == nil)
    }
}
