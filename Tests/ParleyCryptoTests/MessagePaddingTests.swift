import ParleyCrypto
import Testing

@Suite("Message padding")
struct MessagePaddingTests {
    @Test("sizes follow the buckets", arguments: [
        (0, 64), (59, 64), (60, 128), (123, 128), (124, 256), (65_531, 65_536),
        (65_532, 131_072), (131_067, 131_072), (131_068, 196_608),
    ])
    func sizes(length: Int, expected: Int) throws {
        #expect(MessagePadding.paddedSize(forPlaintextLength: length) == expected)
        let padded = MessagePadding.pad([UInt8](repeating: 7, count: length))
        #expect(padded.count == expected)
        #expect(try MessagePadding.unpad(padded) == [UInt8](repeating: 7, count: length))
    }
}
