import ParleyWire
import Testing

@Suite("Line framer")
struct LineFramerTests {
    static let stream: [UInt8] = Array("{\"a\":1}\n{\"b\":2}\r\n\n{\"c\":\"é\"}\n".utf8)
    static let expected: [LineFramer.Event] = [
        .line(Array("{\"a\":1}".utf8)), .line(Array("{\"b\":2}".utf8)), .line([]), .line(Array("{\"c\":\"é\"}".utf8)),
    ]

    @Test("the same lines come out whether bytes arrive one at a time, all at once, or in random pieces")
    func chunkingDoesNotMatter() {
        var whole = LineFramer()
        #expect(whole.feed(Self.stream) == Self.expected)

        var single = LineFramer()
        #expect(Self.stream.flatMap { single.feed([$0]) } == Self.expected)

        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            var framer = LineFramer()
            var events: [LineFramer.Event] = []
            var rest = Self.stream[...]
            while !rest.isEmpty {
                let size = Int.random(in: 1...7, using: &generator)
                events += framer.feed(rest.prefix(size))
                rest = rest.dropFirst(size)
            }
            #expect(events == Self.expected)
            #expect(framer.bufferedByteCount == 0)
        }
    }

    @Test("a line of exactly the limit passes; one byte more is refused and nothing more is read")
    func limit() {
        var framer = LineFramer(maximumLineLength: 8)
        #expect(framer.feed(Array("12345678\n".utf8)) == [.line(Array("12345678".utf8))])
        #expect(framer.feed(Array("123456789".utf8)) == [.lineTooLong])
        #expect(framer.feed(Array("\n{}\n".utf8)) == [])
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("an endless line never buffers more than the limit")
    func endlessLine() {
        var framer = LineFramer(maximumLineLength: 1024)
        var events: [LineFramer.Event] = []
        for _ in 0..<10_000 {
            events += framer.feed([UInt8](repeating: 0x41, count: 100))
            #expect(framer.bufferedByteCount <= 1024)
        }
        #expect(events == [.lineTooLong])
    }

    @Test("a partial line stays buffered until its newline arrives")
    func partial() {
        var framer = LineFramer()
        #expect(framer.feed(Array("{\"x\":".utf8)) == [])
        #expect(framer.bufferedByteCount == 5)
        #expect(framer.feed(Array("1}\n".utf8)) == [.line(Array("{\"x\":1}".utf8))])
    }
}
