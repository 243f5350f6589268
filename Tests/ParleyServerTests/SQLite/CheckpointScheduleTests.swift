@testable import ParleyServer
import Testing

/// When the write-ahead log is copied, and by whom: the rules of `CheckpointSchedule`, step by step.
@Suite("SQLite checkpoint schedule")
struct CheckpointScheduleTests {
    typealias Schedule = CheckpointSchedule

    @Test("a round starts at the threshold; the writer copies a short tail; a long tail gets another round")
    func rounds() {
        var schedule = Schedule()
        #expect(schedule.committed(frames: 10) == .nothing)
        #expect(schedule.committed(frames: Schedule.startFrames - 1) == .nothing)
        #expect(schedule.committed(frames: Schedule.startFrames) == .startRound)
        #expect(schedule.committed(frames: Schedule.startFrames + 400) == .nothing, "one round at a time")
        schedule.roundEnded(.copied(through: 1_400))
        // Under load the writer added more than a tail while the round ran: another round, not a long stop.
        #expect(schedule.committed(frames: 1_400 + Schedule.tailFrames + 1) == .startRound)
        schedule.roundEnded(.copied(through: 2_401))
        #expect(schedule.committed(frames: 2_401 + 300) == .copyTail)
        #expect(schedule.phase == .idle)
        // The log started over: small again.
        #expect(schedule.committed(frames: 40) == .nothing)
    }

    @Test("a round that finds the log busy is retried after the next commit")
    func busy() {
        var schedule = Schedule()
        #expect(schedule.committed(frames: Schedule.startFrames + 200) == .startRound)
        schedule.roundEnded(.busy)
        #expect(schedule.phase == .idle)
        #expect(schedule.committed(frames: Schedule.startFrames + 300) == .startRound)
    }

    @Test("when rounds fail, the writer copies everything itself at the limit, so the log stays bounded")
    func failed() {
        var schedule = Schedule()
        #expect(schedule.committed(frames: Schedule.startFrames) == .startRound)
        schedule.roundEnded(.failed)
        #expect(schedule.committed(frames: Schedule.limitFrames - 1) == .nothing)
        #expect(schedule.committed(frames: Schedule.limitFrames) == .copyTail)
        #expect(schedule.committed(frames: Schedule.startFrames) == .startRound, "then rounds are tried again")
    }

    @Test("when a round cannot keep up, the writer waits for it at the limit; the round's late end changes nothing")
    func limit() {
        var schedule = Schedule()
        #expect(schedule.committed(frames: Schedule.startFrames) == .startRound)
        #expect(schedule.committed(frames: Schedule.limitFrames - 1) == .nothing)
        #expect(schedule.committed(frames: Schedule.limitFrames + 200) == .waitAndCopyTail)
        schedule.roundEnded(.copied(through: 3_000))
        #expect(schedule.phase == .idle)
        #expect(schedule.committed(frames: 500) == .nothing)
    }
}
