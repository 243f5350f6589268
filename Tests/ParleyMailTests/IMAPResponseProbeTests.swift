import Foundation
import ParleyMail
@testable import ParleyMailFormats
import Testing

/// The parser the sync and the fuzz target share, on answers written from RFC 9051's grammar.
@Suite struct IMAPResponseProbeTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/mail-imap-response")

    func seed(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Self.corpus.appendingPathComponent(name)))
    }

    @Test func aFetchWithABodyIsFlattenedExactly() throws {
        let (code, fetched) = IMAPResponseProbe.parse(try seed("fetch-body"))
        #expect(code == 0)
        let message = try #require(fetched.first)
        #expect(fetched.count == 1)
        #expect(message.uid == 7 && message.size == 28 && message.flags == 3)
        // 26 Nov 2026 09:14:00 +01:00 is 08:14:00 UTC.
        #expect(message.internalDate == Int64(DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
                                                             year: 2026, month: 11, day: 26, hour: 8, minute: 14).date!.timeIntervalSince1970))
        #expect(message.body.map { String(decoding: $0, as: UTF8.self) } == "Subject: hi\r\n\r\nHello, Ann.\r\n")
    }

    @Test func sizesAndFlagsWithoutBodies() throws {
        let sizes = IMAPResponseProbe.parse(try seed("fetch-sizes"))
        #expect(sizes.code == 0 && sizes.fetched.map(\.uid) == [1, 2] && sizes.fetched.map(\.size) == [100, 2048])
        #expect(sizes.fetched.allSatisfy { $0.body == nil })
        let flags = IMAPResponseProbe.parse(try seed("flags"))
        #expect(flags.code == 0 && flags.fetched.map(\.flags) == [1])
    }

    @Test func truncatedOversizedAndGarbageAnswersGiveNothing() throws {
        let whole = try seed("fetch-body")
        for cut in [1, 10, 60, whole.count / 2, whole.count - 3] {
            let (code, fetched) = IMAPResponseProbe.parse(Array(whole.prefix(cut)))
            #expect(code != 0 && fetched.isEmpty, "cut at \(cut)")
        }
        let huge = IMAPResponseProbe.parse(try seed("huge-literal"))
        #expect(huge.code != 0 && huge.fetched.isEmpty)
        for garbage in [[UInt8](repeating: 0xFF, count: 64), Array("* 1 FETCH (((((\r\n".utf8), Array("\r\n\r\n".utf8), []] {
            #expect(IMAPResponseProbe.parse(garbage).fetched.isEmpty)
        }
    }
}
