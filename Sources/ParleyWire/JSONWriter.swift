/// Writes a `JSONValue` as compact JSON with keys in byte order: the one encoding on the wire.
///
/// Replaces `JSONEncoder` (with `.sortedKeys, .withoutEscapingSlashes`) on the hot path and writes the
/// same text for the same value: integers below 2^53 without a fraction, other numbers in Swift's
/// shortest round-trip form, `"`, `\` and control characters escaped, everything else as UTF-8.
public enum JSONWriter {
    /// Why a value cannot be written.
    public struct UnrepresentableNumber: Error, Sendable, Equatable {}

    /// The compact text of `value`.
    public static func bytes(_ value: JSONValue) throws(UnrepresentableNumber) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        try write(value, into: &output)
        return output
    }

    /// Appends the compact text of `value` to `output`.
    public static func write(_ value: JSONValue, into output: inout [UInt8]) throws(UnrepresentableNumber) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): try write(number: number, into: &output)
        case .string(let text): write(string: text, into: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try write(item, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let fields):
            output.append(UInt8(ascii: "{"))
            for (index, key) in fields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(string: key, into: &output)
                output.append(UInt8(ascii: ":"))
                try write(fields[key]!, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func write(number: Double, into output: inout [UInt8]) throws(UnrepresentableNumber) {
        guard number.isFinite else { throw UnrepresentableNumber() }
        if number.rounded() == number, abs(number) < 9_007_199_254_740_992 {
            output.append(contentsOf: String(Int64(number)).utf8)
        } else {
            output.append(contentsOf: number.description.utf8)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func write(string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = string
        // A native string's UTF-8 is contiguous: the runs that need no escape (all of a base64 field) are copied
        // whole, not appended byte by byte.
        text.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices where needsEscape(bytes[index]) {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                writeEscaped(bytes[index], into: &output)
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func writeEscaped(_ byte: UInt8, into output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        default:
            output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            output.append(hexDigits[Int(byte >> 4)])
            output.append(hexDigits[Int(byte & 0x0F)])
        }
    }
}
