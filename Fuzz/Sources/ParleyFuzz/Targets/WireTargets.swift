import Foundation
import ParleyWire

extension FuzzTarget {
    static let wireTargets: [FuzzTarget] = [
        FuzzTarget("wire-json", "JSONParser agrees with JSONSerialization on validity and strings (documented differences aside); what it parses writes and parses back to the same value; a value budget refuses exactly the texts of more values", run: wireJSON),
        FuzzTarget("wire-request", "request and server lines parse or fail cleanly; a parsed request re-encodes to a line that parses to the same request; the line framer gives the same lines fed whole or byte by byte", run: wireRequest),
    ]
}

/// Why our parser may refuse what Foundation accepts: the deliberate strictness documented in
/// `JSONParser` and docs/TESTING.md.
private let documentedRefusals = ["the same key twice", "nested deeper than", "a number out of range"]

/// Foundation skips a UTF-8 byte-order mark and guesses UTF-16 and UTF-32 from a mark or from NUL bytes among
/// the first four; the wire is UTF-8 without a mark, and NUL is never valid there outside an escape.
private func readsAsUTF16Or32(_ bytes: [UInt8]) -> Bool {
    bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xEF, 0xBB, 0xBF])
        || bytes.prefix(4).contains(0)
}

/// Foundation accepts a comma before `]` or `}` (`[1,]`, `{"a":1,}`), which RFC 8259 does not.
private func isTrailingComma(_ bytes: [UInt8], at offset: Int) -> Bool {
    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "]") || bytes[offset] == UInt8(ascii: "}") else { return false }
    let before = bytes[..<offset].last { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    return before == UInt8(ascii: ",")
}

private func wireJSON(_ bytes: [UInt8]) {
    let ours = Result { () throws(JSONParser.SyntaxError) in try JSONParser.parse(bytes).value }
    let theirs = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    switch (ours, theirs) {
    case (.success(let value), let theirs?):
        require(sameShape(value, theirs), "JSONParser and JSONSerialization read different values")
        guard let written = try? JSONWriter.bytes(value) else { violated("a parsed value could not be written") }
        require((try? JSONParser.parse(written).value) == value, "a written value does not parse back to itself")
        require((try? JSONSerialization.jsonObject(with: Data(written), options: [.fragmentsAllowed])) != nil,
                "JSONSerialization refuses what JSONWriter wrote")
        let count = valueCount(value)
        require((try? JSONParser.parse(bytes, maximumValues: count).value) == value, "a budget of exactly its values refuses a text")
        require((try? JSONParser.parse(bytes, maximumValues: count - 1)) == nil, "a budget one short of its values accepts a text")
    case (.success, nil):
        violated("JSONParser accepts a text JSONSerialization refuses")
    case (.failure, _?) where readsAsUTF16Or32(bytes):
        break
    case (.failure(let error), _?) where isTrailingComma(bytes, at: error.offset):
        break
    case (.failure(let error), _?):
        require(documentedRefusals.contains { error.reason.contains($0) },
                "JSONParser refuses a text JSONSerialization accepts: \(error)")
    case (.failure, nil):
        break
    }
}

/// Every value in `value`, itself and containers included (what `JSONParser`'s budget counts).
private func valueCount(_ value: JSONValue) -> Int {
    switch value {
    case .null, .bool, .number, .string: 1
    case .array(let items): 1 + items.reduce(0) { $0 + valueCount($1) }
    case .object(let fields): 1 + fields.values.reduce(0) { $0 + valueCount($1) }
    }
}

/// Whether Foundation's object has the same structure and strings; numbers and booleans are both
/// `NSNumber` there, so they are compared only as "a scalar".
private func sameShape(_ value: JSONValue, _ other: Any) -> Bool {
    switch value {
    case .null: return other is NSNull
    case .bool, .number: return other is NSNumber || other is Bool || other is Int || other is Double
    case .string(let text): return (other as? String) == text
    case .array(let items):
        guard let others = other as? [Any], others.count == items.count else { return false }
        return zip(items, others).allSatisfy { sameShape($0, $1) }
    case .object(let fields):
        guard let others = other as? [String: Any], others.count == fields.count else { return false }
        return fields.allSatisfy { key, item in others[key].map { sameShape(item, $0) } ?? false }
    }
}

private func wireRequest(_ bytes: [UInt8]) {
    if case .success(let request) = WireRequest.parse(line: bytes) {
        guard let line = try? request.encodedLine() else { violated("a parsed request could not be encoded") }
        guard case .success(let again) = WireRequest.parse(line: line) else { violated("an encoded request does not parse") }
        require(again == request, "a request changed in an encode/parse round trip")
    }
    _ = try? WireMessage.parse(line: bytes)

    var whole = LineFramer(maximumLineLength: 64)
    var byByte = LineFramer(maximumLineLength: 64)
    let all = whole.feed(bytes)
    var each: [LineFramer.Event] = []
    for byte in bytes { each += byByte.feed(CollectionOfOne(byte)) }
    require(all == each, "the framer's lines depend on how the bytes were split")
    require(whole.bufferedByteCount <= 64, "the framer holds more than its limit")
}
