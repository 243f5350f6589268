import Foundation
@testable import ParleyClient
import ParleyClientFormats
import ParleyCrypto
import Synchronization
import Testing

/// The sent log alone, on a sealed database: kept for the retention period, once per device, and what is stored
/// wrong reads as nothing rather than as a message to send again.
@Suite("Sent log")
struct SentLogTests {
    @Test("a record is kept, noted once per device with its re-send, and pruned after the retention period")
    func keptNotedAndPruned() throws {
        let account = try ScratchAccount("sent-log")
        let clock = SteppedClock(start: 1_800_000_000_000)
        let log = SentLog(dependencies: AccountContext(database: account.database, directory: account.url, clock: clock))
        try account.database.write {
            try log.record(10, conversationID: 3, content: MessageContent(id: "m-1", type: "text", text: "hello"), recipients: [(7, 2), (9, 1)], in: $0)
        }
        let record = try #require(try log.record(10))
        #expect(record.conversationID == 3 && record.resentTo.isEmpty)
        #expect(record.wasSent(to: "7.2") && record.wasSent(to: "9.1"))
        #expect(!record.wasSent(to: "7.3") && !record.wasSent(to: "8.1") && !record.wasSent(to: "9.10"), "only the devices it was sealed for")
        #expect(try MessageContent.decode(record.content).text == "hello")

        try log.noteResent(10, record: record, to: "7.2", as: 55)
        #expect(try log.record(10)?.resentTo == ["7.2"])
        #expect(try log.originalOfResend(55) == 10)
        #expect(try log.originalOfResend(10) == nil)

        clock.advance(SentLog.retention - 1)
        try log.prune()
        #expect(try log.record(10) != nil, "kept until the retention period has passed")
        clock.advance(2)
        try log.prune()
        #expect(try log.record(10) == nil)
    }

    @Test("garbage in the log reads as nothing, and pruning removes it")
    func garbageIsNothing() throws {
        let account = try ScratchAccount("sent-log-garbage")
        let log = SentLog(dependencies: account.context())
        try account.database.write {
            try $0.put(Namespace.sent, "1", [])
            try $0.put(Namespace.sent, "2", Array("{\"conversationID\":1".utf8))
            try $0.put(Namespace.sent, "3", [UInt8](repeating: 0xFF, count: 1 << 16))
            try $0.put(Namespace.resendOf, "4", Array("not a number".utf8))
            try $0.put(Namespace.resendOf, "5", Array("99999999999999999999999".utf8))
        }
        for id: Int64 in [1, 2, 3] { #expect(try log.record(id) == nil) }
        // An entry from before the recipients were kept: readable, and sent again to nobody.
        try account.database.write {
            try $0.put(Namespace.sent, "6", Array(#"{"conversationID":1,"content":[123,125],"sentAt":1,"resentTo":[]}"#.utf8))
        }
        #expect(try log.record(6)?.wasSent(to: "2.1") == false)
        #expect(try log.originalOfResend(4) == nil)
        #expect(try log.originalOfResend(5) == nil)
        try log.prune()
        #expect(try account.database.read { try $0.all(Namespace.sent) }.isEmpty)
    }
}

/// A wall clock that moves only when the test says so.
final class SteppedClock: WallClock {
    private let time: Mutex<Int64>
    init(start: Int64) { time = Mutex(start) }
    func now() -> Int64 { time.withLock { $0 } }
    func advance(_ milliseconds: Int64) { time.withLock { $0 += milliseconds } }
}
