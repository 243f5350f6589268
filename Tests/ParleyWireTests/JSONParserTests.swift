import Foundation
import ParleyTestSupport
import ParleyWire
import Testing

/// `JSONParser` and `JSONWriter` against RFC 8259 and against Foundation, an independent implementation:
/// whatever both accept must mean the same value, and our writer must write what `JSONEncoder` writes.
@Suite("JSON parser and writer")
struct JSONParserTests {
    static func parse(_ text: String) throws(JSONParser.SyntaxError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8)).value
    }

    @Test("valid texts parse to their values", arguments: [
        ("{}", JSONValue.object([:])),
        ("[]", .array([])),
        (" \t\r\n{ \"a\" : [ 1 , -2.5 , 3e2 , 0 , -0 , 1E-2 ] }\n ", .object(["a": [1, .number(-2.5), 300, 0, 0, .number(0.01)]])),
        (#"{"t":true,"f":false,"n":null}"#, .object(["t": true, "f": false, "n": .null])),
        (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{C}\n\r\t")),
        (#""\u00e9\u20AC\ud83d\ude00""#, .string("é€😀")),
        ("\"é€😀\"", .string("é€😀")),
        ("123456789012345678", .number(Double("123456789012345678")!)),
        ("9007199254740993", .number(Double("9007199254740993")!)),
        ("1.7976931348623157e308", .number(1.7976931348623157e308)),
        ("[[[[[]]]]]", .array([.array([.array([.array([.array([])])])])])),
        (#""a\u0000b""#, .string("a\u{0}b")),
    ])
    func valid(text: String, expected: JSONValue) throws {
        #expect(try Self.parse(text) == expected)
    }

    @Test("invalid texts are refused with a reason and an offset", arguments: [
        "", " ", "{", "}", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{'a':1}", "[1 2]", "01", "-", "1.", ".5",
        "1e", "1e+", "+1", "0x10", "NaN", "Infinity", "-Infinity", "1e400", "tru", "nul", "True", "\"abc", "\"a\nb\"",
        "\"\\x\"", "\"\\u12\"", "\"\\uZZZZ\"", "\"\\ud800\"", "\"\\ud800x\"", "\"\\ud800\\u0041\"", "\"\\udc00\"",
        "{\"a\":1}{", "[1]]", "{\"a\":1,\"a\":2}", "\u{FEFF}{}", "//c\n{}", "[1]//",
    ])
    func invalid(text: String) {
        #expect(throws: JSONParser.SyntaxError.self) { try Self.parse(text) }
    }

    @Test("invalid UTF-8 in a string, and bytes outside strings, are refused")
    func invalidUTF8() {
        for bytes: [UInt8] in [[0x22, 0xC3, 0x28, 0x22], [0x22, 0xFF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22], [0xC3, 0xA9]] {
            #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(bytes) }
        }
    }

    @Test("nesting is allowed to 64 levels and refused beyond, even 100,000 deep, without a crash")
    func depth() throws {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try Self.parse(deepest) != .null)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParser.SyntaxError.self) { try Self.parse(tooDeep) }
        #expect(throws: JSONParser.SyntaxError.self) { try Self.parse(String(repeating: "{\"a\":", count: 100_000)) }
        #expect(throws: JSONParser.SyntaxError.self) { try Self.parse(String(repeating: "[", count: 100_000)) }
    }

    @Test("a value budget counts every value, containers included, and refuses the text past it")
    func valueBudget() throws {
        // {"a":[1,"x",null]} holds five values: the object, the array and three items.
        let text = Array(#"{"a":[1,"x",null]}"#.utf8)
        #expect(try JSONParser.parse(text, maximumValues: 5).value == .object(["a": .array([.number(1), .string("x"), .null])]))
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(text, maximumValues: 4) }
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(Array("[]".utf8), maximumValues: 0) }
        // Eight MiB of zeros is four million values; refused at the budget, not after building them all.
        var zeros = [UInt8](repeating: UInt8(ascii: ","), count: (8 << 20) + 1)
        for index in stride(from: 1, to: zeros.count, by: 2) { zeros[index] = UInt8(ascii: "0") }
        zeros[0] = UInt8(ascii: "["); zeros[zeros.count - 1] = UInt8(ascii: "]")
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(zeros, maximumValues: 1 << 20) }
        guard case .array(let all) = try JSONParser.parse(zeros).value else { Issue.record("not an array"); return }
        #expect(all.count == (8 << 20) / 2)
    }

    @Test("a string of 1 MiB parses, escaped or not; NUL is reported, the text \\u0000 is not")
    func largeStringsAndNUL() throws {
        let long = String(repeating: "A", count: 1 << 20)
        #expect(try Self.parse("\"\(long)\"") == .string(long))
        #expect(try Self.parse("\"\\n\(long)\"") == .string("\n" + long))
        #expect(try JSONParser.parse(Array(#"{"k":["x","a\u0000"]}"#.utf8)).containsNUL)
        #expect(try JSONParser.parse(Array(#"{"k\u0000":1}"#.utf8)).containsNUL)
        #expect(try !JSONParser.parse(Array(#"{"k":"see \\u0000"}"#.utf8)).containsNUL)
    }

    @Test("input that is not contiguous parses the same")
    func nonContiguous() throws {
        let text = #"{"a":[1,"b",{"c":null}]}"#
        #expect(try JSONParser.parse(Array(text.utf8).lazy.map { $0 }).value == Self.parse(text))
    }

    @Test("the writer writes exactly what JSONEncoder writes (sorted keys, slashes unescaped) for random values")
    func writerMatchesFoundation() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var random = SplitMix64(state: 7)
        for _ in 0..<2_000 {
            let value = RandomJSON.value(depth: 0, using: &random)
            let ours = try JSONWriter.bytes(value)
            #expect(ours == Array(try encoder.encode(value)), "\(String(decoding: ours, as: UTF8.self))")
            #expect(try JSONParser.parse(ours).value == value)
        }
    }

    @Test("non-finite numbers cannot be written")
    func nonFinite() {
        for number in [Double.nan, .infinity, -.infinity] {
            #expect(throws: JSONWriter.UnrepresentableNumber.self) { try JSONWriter.bytes(.array([.number(number)])) }
        }
    }

    @Test("on mutated texts the parser agrees with Foundation's JSONDecoder, except where it is stricter by design")
    func mutationsAgreeWithFoundation() throws {
        var random = SplitMix64(state: 11)
        var compared = 0, bothAccepted = 0
        for _ in 0..<3_000 {
            var bytes = try JSONWriter.bytes(RandomJSON.value(depth: 0, using: &random))
            for _ in 0...Int(random.next() % 3) { RandomJSON.mutate(&bytes, using: &random) }
            let ours = try? JSONParser.parse(bytes).value
            let foundation = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
            compared += 1
            if let ours {
                bothAccepted += foundation == nil ? 0 : 1
                #expect(foundation == ours, "Foundation disagrees on \(String(decoding: bytes, as: UTF8.self))")
            } else if foundation != nil {
                // Stricter by design: a key twice. Anything else Foundation accepts, we must accept.
                #expect(RandomJSON.hasDuplicateKey(bytes), "refused what Foundation accepts: \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(compared == 3_000)
        #expect(bothAccepted > 100, "the mutations left too few valid texts to compare values")
    }
}

enum RandomJSON {
    static let alphabet: [String] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", "é", "€", "😀", "\u{2028}", "{", "]", ":", ","]

    static func string(using random: inout SplitMix64) -> String {
        (0..<Int(random.next() % 8)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
    }

    static func value(depth: Int, using random: inout SplitMix64) -> JSONValue {
        let choice = random.next() % (depth > 3 ? 5 : 7)
        switch choice {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2:
            switch random.next() % 4 {
            case 0: return .number(Double(Int64(bitPattern: random.next()) >> Int64(random.next() % 64)))
            case 1: return .number(Double(Int(random.next() % 2_000_000)) - 1_000_000)
            case 2: return .number(Double(bitPattern: random.next()).isFinite ? Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) : 0.5)
            default: return .number(Double(random.next() % 10_000) / 64)
            }
        case 3, 4: return .string(string(using: &random))
        case 5: return .array((0..<Int(random.next() % 4)).map { _ in value(depth: depth + 1, using: &random) })
        default:
            var fields: [String: JSONValue] = [:]
            for _ in 0..<Int(random.next() % 4) { fields[string(using: &random)] = value(depth: depth + 1, using: &random) }
            return .object(fields)
        }
    }

    static func mutate(_ bytes: inout [UInt8], using random: inout SplitMix64) {
        guard !bytes.isEmpty else { return }
        let index = Int(random.next() % UInt64(bytes.count))
        let interesting: [UInt8] = Array(#"{}[],:"\0123456789eE.-+tfnu "#.utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0xED]
        switch random.next() % 4 {
        case 0: bytes[index] = interesting[Int(random.next() % UInt64(interesting.count))]
        case 1: bytes.remove(at: index)
        case 2: bytes.insert(interesting[Int(random.next() % UInt64(interesting.count))], at: index)
        default: bytes.removeSubrange(index...)
        }
    }

    /// Whether Foundation's reading of `bytes` has an object that names a key twice.
    static func hasDuplicateKey(_ bytes: [UInt8]) -> Bool {
        // Foundation keeps one value per key, so its tree has fewer keys than the text names exactly when
        // some object names a key twice.
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else { return false }
        return keyCount(object) < textualKeyCount(bytes)
    }

    private static func keyCount(_ value: Any) -> Int {
        if let object = value as? [String: Any] { return object.count + object.values.map(keyCount).reduce(0, +) }
        if let array = value as? [Any] { return array.map(keyCount).reduce(0, +) }
        return 0
    }

    /// Keys counted from the text: strings directly followed (after whitespace) by ':'.
    private static func textualKeyCount(_ bytes: [UInt8]) -> Int {
        var count = 0, index = 0, inString = false, escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    var next = index + 1
                    while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                    if next < bytes.count, bytes[next] == UInt8(ascii: ":") { count += 1 }
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            }
            index += 1
        }
        return count
    }
}
