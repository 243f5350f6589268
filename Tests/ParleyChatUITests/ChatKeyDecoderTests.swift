@testable import ParleyChatUI
import Testing

/// The terminal byte decoder: sequences, split reads, garbage.
@Suite("parley chat: key decoder")
struct ChatKeyDecoderTests {
    func decode(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(bytes) + decoder.flush()
    }

    @Test func plainKeysAndText() {
        #expect(decode(Array("hi there".utf8)) == [.text("hi there")])
        #expect(decode([0x0D]) == [.enter])
        #expect(decode([0x7F, 0x08]) == [.backspace, .backspace])
        #expect(decode([0x09]) == [.tab])
        #expect(decode([0x03, 0x15]) == [.control("c"), .control("u")])
        #expect(decode(Array("a\rb".utf8)) == [.text("a"), .enter, .text("b")])
    }

    @Test(arguments: [
        ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}OA", .up), ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
        ("\u{1B}[3~", .delete), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[Z", .backTab),
        ("\u{1B}[1;5A", .previousConversation), ("\u{1B}[1;3B", .nextConversation),
    ])
    func escapeSequences(sequence: String, key: Key) {
        #expect(decode(Array(sequence.utf8)) == [key])
    }

    @Test func sequencesSplitAcrossReadsWaitForTheirEnd() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.hasPending)
        #expect(decoder.feed(Array("[1;".utf8)).isEmpty)
        #expect(decoder.feed(Array("5B".utf8)) == [.nextConversation])
        #expect(!decoder.hasPending)
        // Byte by byte, a whole burst decodes to the same keys as in one read.
        let burst = Array("ab\u{1B}[5~é😀\u{1B}[Dz\r".utf8)
        var slow = KeyDecoder()
        var keys: [Key] = []
        for byte in burst { keys += slow.feed([byte]) }
        #expect(keys == [.text("a"), .text("b"), .pageUp, .text("é"), .text("😀"), .left, .text("z"), .enter])
        var fast = KeyDecoder()
        #expect(fast.feed(burst) == [.text("ab"), .pageUp, .text("é😀"), .left, .text("z"), .enter])
    }

    @Test func utf8SplitAcrossReads() {
        var decoder = KeyDecoder()
        let bytes = Array("👍".utf8)   // F0 9F 91 8D
        #expect(decoder.feed(bytes[0..<1]).isEmpty)
        #expect(decoder.feed(bytes[1..<3]).isEmpty)
        #expect(decoder.feed(bytes[3...]) == [.text("👍")])
    }

    @Test func aLoneEscapeIsTheEscapeKeyOnlyAfterAPause() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flush() == [.escape])
        #expect(decode([0x1B, 0x1B]) == [.escape, .escape])
        #expect(decode(Array("\u{1B}x".utf8)) == [.escape, .text("x")])   // Alt-x
    }

    @Test func truncatedSequencesFlushWithoutAKey() {
        #expect(decode(Array("\u{1B}[1;".utf8)) == [])
        #expect(decode(Array("\u{1B}O".utf8)) == [])
        #expect(decode(Array("\u{1B}[".utf8)) == [])
    }

    @Test func garbageIsDroppedOrReplacedNeverFatal() {
        // Invalid UTF-8: stray continuation bytes, overlong forms, surrogates, bytes past F4.
        #expect(decode([0x80]) == [.text("\u{FFFD}")])
        #expect(decode([0xC0, 0xAF]) == [.text("\u{FFFD}\u{FFFD}")])
        #expect(decode([0xED, 0xA0, 0x80]) == [.text("\u{FFFD}")])
        #expect(decode([0xFF, 0x41]) == [.text("\u{FFFD}A")])
        #expect(decode([0xE2, 0x41]) == [.text("\u{FFFD}A")])
        // A cut character at the end of input.
        #expect(decode([0xE2, 0x82]) == [.text("\u{FFFD}")])
        // C1 controls encoded in UTF-8 never reach the screen.
        #expect(decode([0xC2, 0x9B, 0x41]) == [.text("A")])
        // Unknown CSI sequences vanish; what follows still decodes.
        #expect(decode(Array("\u{1B}[99zq".utf8)) == [.text("q")])
        #expect(decode(Array("\u{1B}[?1049hq".utf8)) == [.text("q")])
        // An endless CSI is cut at the length limit instead of buffering forever.
        var decoder = KeyDecoder()
        _ = decoder.feed(Array("\u{1B}[".utf8) + Array(repeating: UInt8(ascii: "1"), count: 1000))
        #expect(decoder.pending.count <= KeyDecoder.maximumSequence)
        // Random bytes: no crash, and the decoder ends empty.
        var random = SystemRandomNumberGenerator()
        var fuzz = KeyDecoder()
        for _ in 0..<500 {
            let chunk = (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = fuzz.feed(chunk)
        }
        _ = fuzz.flush()
        #expect(!fuzz.hasPending)
    }
}
