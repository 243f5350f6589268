/// A strict RFC 8259 JSON parser into `JSONValue`, for the wire's hot path.
///
/// Foundation's `JSONDecoder` reaches `JSONValue` only through `Codable`, trying each type in turn and
/// throwing on every miss; that was an eighth of the server's CPU at load. This parser reads the
/// bytes once. It is stricter than the RFC requires in two ways that matter for a security boundary:
/// an object with a key twice is refused (two parsers must never disagree about which value counts),
/// and nesting deeper than `maximumDepth` is refused (no stack exhaustion from a hostile line). A caller that
/// takes long lines from a peer it does not trust bounds the values too (`maximumValues`): a value costs 16–24
/// bytes of memory against its 2 bytes of text (`[0,0,…]`), so a 128 MiB line could otherwise hold a gigabyte.
public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 64

    /// Why a text is not JSON, with the byte offset where the parser gave up.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "\(reason) at byte \(offset)" }
        /// Whether the text was refused for holding more values than the caller allows (it may be valid JSON).
        public var isOverValueBudget: Bool { reason == Self.tooManyValues }
        static let tooManyValues = "more values than the reader accepts"
    }

    /// The value of `bytes`, and whether any string in it (keys included) contains U+0000; a text of more than
    /// `maximumValues` values (each string, number, literal, array and object counts once) is refused.
    public static func parse(
        _ bytes: some Collection<UInt8>, maximumValues: Int = .max
    ) throws(SyntaxError) -> (value: JSONValue, containsNUL: Bool) {
        let result: Result<(JSONValue, Bool), SyntaxError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(SyntaxError) in try parse(buffer: buffer, maximumValues: maximumValues) }
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { buffer throws(SyntaxError) in try parse(buffer: buffer, maximumValues: maximumValues) }
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>, maximumValues: Int) throws(SyntaxError) -> (JSONValue, Bool) {
        var parser = JSONParser(bytes: buffer, valuesLeft: maximumValues)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == buffer.count else { throw parser.error("unexpected text after the value") }
        return (value, parser.sawNUL)
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var sawNUL = false
    private var valuesLeft: Int

    private init(bytes: UnsafeBufferPointer<UInt8>, valuesLeft: Int) {
        self.bytes = bytes
        self.valuesLeft = valuesLeft
    }

    private func error(_ reason: String) -> SyntaxError {
        SyntaxError(offset: position, reason: reason)
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
        guard let byte = current else { throw error("the text ends where a value should be") }
        guard valuesLeft > 0 else { throw error(SyntaxError.tooManyValues) }
        valuesLeft -= 1
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw error("unknown literal") }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] {
            throw error("unknown literal")
        }
        position += count
    }

    private mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        position += 1
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(fields)
        }
        while true {
            guard current == UInt8(ascii: "\"") else { throw error("an object key must be a string") }
            let keyStart = position
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after an object key") }
            position += 1
            skipWhitespace()
            let item = try value(depth: depth)
            guard fields.updateValue(item, forKey: key) == nil else {
                throw SyntaxError(offset: keyStart, reason: "an object has the same key twice")
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                return .object(fields)
            default:
                throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                position += 1
                return .array(items)
            default:
                throw error("expected ',' or ']' in an array")
            }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as a finite Double.
    private mutating func number() throws(SyntaxError) -> Double {
        let start = position
        var negative = false
        if current == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var whole: UInt64 = 0
        var digits = 0
        if current == UInt8(ascii: "0") {
            position += 1
            digits = 1
            if let next = current, isDigit(next) { throw error("a number must not start with 0") }
        } else {
            while let byte = current, isDigit(byte) {
                if digits < 18 { whole = whole * 10 + UInt64(byte - UInt8(ascii: "0")) }
                digits += 1
                position += 1
            }
            guard digits > 0 else { throw error("a number needs digits") }
        }
        var simple = digits <= 15
        if current == UInt8(ascii: ".") {
            simple = false
            position += 1
            guard try skipDigits() > 0 else { throw error("a number needs digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            simple = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard try skipDigits() > 0 else { throw error("a number needs digits in its exponent") }
        }
        if simple { return negative ? -Double(whole) : Double(whole) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw SyntaxError(offset: start, reason: "a number out of range")
        }
        return value
    }

    private mutating func skipDigits() throws(SyntaxError) -> Int {
        var count = 0
        while let byte = current, isDigit(byte) {
            count += 1
            position += 1
        }
        return count
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// A string starting at the opening quote; its UTF-8 must be valid.
    private mutating func string() throws(SyntaxError) -> String {
        position += 1
        let start = position
        // The common case: no escapes, so the string is the bytes between the quotes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = try validated(UnsafeBufferPointer(rebasing: bytes[start..<position]), from: start)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error("a control character inside a string must be escaped") }
            position += 1
        }
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                let text = try decoded.withUnsafeBufferPointer { buffer throws(SyntaxError) in try validated(buffer, from: start) }
                position += 1
                return text
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &decoded)
            case ..<0x20:
                throw error("a control character inside a string must be escaped")
            default:
                decoded.append(byte)
                position += 1
            }
        }
        throw error("a string is not closed")
    }

    private mutating func validated(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) throws(SyntaxError) -> String {
        guard let text = String(validating: buffer, as: UTF8.self) else {
            throw SyntaxError(offset: start, reason: "a string is not valid UTF-8")
        }
        if !sawNUL, buffer.contains(0) { sawNUL = true }
        return text
    }

    /// One escape, the backslash already read.
    private mutating func escape(into decoded: inout [UInt8]) throws(SyntaxError) {
        guard let byte = current else { throw error("a string ends inside an escape") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try hex4())
            if (0xD800...0xDBFF).contains(scalar) {
                guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw error("a high surrogate escape without its low surrogate")
                }
                position += 2
                let low = UInt32(try hex4())
                guard (0xDC00...0xDFFF).contains(low) else { throw error("a high surrogate escape without its low surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("a low surrogate escape without its high surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("an escape that is not a Unicode scalar") }
            UTF8.encode(unicode) { decoded.append($0) }
        default:
            throw error("an unknown escape")
        }
    }

    private mutating func hex4() throws(SyntaxError) -> UInt16 {
        guard bytes.count - position >= 4 else { throw error("a \\u escape needs four hex digits") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }
}
