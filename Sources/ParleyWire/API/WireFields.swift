import Foundation

/// The fields of one JSON object on the wire — a request, a response, a notification or an object nested in
/// one — read with limits. Every accessor throws `missing_field` / `invalid_field` naming the field by its
/// path (`envelopes[2].ciphertext`), so a bad request says exactly what was wrong.
public struct WireFields: Sendable, Equatable {
    /// The object's members as they arrived.
    public let values: [String: JSONValue]
    /// Where this object sits in the message, for error messages ("" at the top).
    let path: String

    /// The fields of `values`, at the top of a message.
    public init(_ values: [String: JSONValue]) {
        self.values = values
        self.path = ""
    }

    init(_ values: [String: JSONValue], path: String) {
        self.values = values
        self.path = path
    }

    /// The field's name as errors give it: its path in the message (`waypoints[3].data`).
    public func name(of field: String) -> String { path.isEmpty ? field : "\(path).\(field)" }

    private func named(_ field: String) -> String { name(of: field) }

    private func present(_ name: String) -> JSONValue? {
        switch values[name] {
        case nil, .null?: nil
        case let value?: value
        }
    }

    /// A required field's value; null is there, and is refused by the accessor as the wrong type ("must be a
    /// number, not null"), as the server always answered.
    private func required(_ name: String) throws(WireError) -> JSONValue {
        guard let value = values[name] else { throw .missing(named(name)) }
        return value
    }

    /// Whether the field is present and not null.
    public func has(_ name: String) -> Bool { present(name) != nil }

    // MARK: Strings

    /// A required string of at most `maxBytes` UTF-8 bytes.
    public func string(_ name: String, maxBytes: Int = 1024) throws(WireError) -> String {
        try Self.string(required(name), named(name), maxBytes: maxBytes)
    }

    /// An optional string (absent or null is nil).
    public func optionalString(_ name: String, maxBytes: Int = 1024) throws(WireError) -> String? {
        guard let value = present(name) else { return nil }
        return try Self.string(value, named(name), maxBytes: maxBytes)
    }

    /// A required array of at most `maxCount` strings of at most `maxBytes` each.
    public func strings(_ name: String, maxCount: Int, maxBytes: Int = 1024) throws(WireError) -> [String] {
        var out: [String] = []
        for (index, item) in try array(name, maxCount: maxCount).enumerated() {
            out.append(try Self.string(item, "\(named(name))[\(index)]", maxBytes: maxBytes))
        }
        return out
    }

    private static func string(_ value: JSONValue, _ name: String, maxBytes: Int) throws(WireError) -> String {
        guard case .string(let string) = value else { throw .invalid(name, "must be a string, not \(value.typeName)") }
        guard string.utf8.count <= maxBytes else { throw .invalid(name, "is longer than \(maxBytes) bytes") }
        return string
    }

    // MARK: Numbers

    /// A required whole number within `range`.
    public func integer(_ name: String, in range: ClosedRange<Int64> = 0...Int64.max) throws(WireError) -> Int64 {
        try Self.integer(required(name), named(name), in: range)
    }

    /// An optional whole number (absent or null is nil).
    public func optionalInteger(_ name: String, in range: ClosedRange<Int64> = 0...Int64.max) throws(WireError) -> Int64? {
        guard let value = present(name) else { return nil }
        return try Self.integer(value, named(name), in: range)
    }

    /// A required device id (1…2³²−1 on the wire, 0 where the range allows it).
    public func device(_ name: String, in range: ClosedRange<Int64> = 0...Int64(UInt32.max)) throws(WireError) -> UInt32 {
        UInt32(try integer(name, in: range))
    }

    /// A required array of at most `maxCount` whole numbers within `range`.
    public func integers(_ name: String, maxCount: Int, in range: ClosedRange<Int64> = 0...Int64.max) throws(WireError) -> [Int64] {
        var out: [Int64] = []
        for (index, item) in try array(name, maxCount: maxCount).enumerated() {
            out.append(try Self.integer(item, "\(named(name))[\(index)]", in: range))
        }
        return out
    }

    private static func integer(_ value: JSONValue, _ name: String, in range: ClosedRange<Int64>) throws(WireError) -> Int64 {
        guard case .number(let number) = value else { throw .invalid(name, "must be a number, not \(value.typeName)") }
        guard number.rounded() == number else { throw .invalid(name, "must be a whole number") }
        // JSON numbers are doubles: past 2^53 a whole number is no longer carried exactly (9223372036854775807 arrives as
        // 2^63), so it is said to be too large rather than out of a range it seems to be in.
        guard abs(number) <= 9_007_199_254_740_991 else { throw .invalid(name, "is too large to be carried exactly (at most 9007199254740991)") }
        guard let integer = Int64(exactly: number), range.contains(integer) else { throw .invalid(name, "must be between \(range.lowerBound) and \(range.upperBound)") }
        return integer
    }

    /// A required number (fractions allowed), finite.
    public func double(_ name: String) throws(WireError) -> Double {
        let value = try required(name)
        guard case .number(let number) = value, number.isFinite else { throw .invalid(named(name), "must be a number, not \(value.typeName)") }
        return number
    }

    // MARK: Booleans

    /// A required boolean.
    public func bool(_ name: String) throws(WireError) -> Bool {
        let value = try required(name)
        guard case .bool(let bool) = value else { throw .invalid(named(name), "must be true or false, not \(value.typeName)") }
        return bool
    }

    /// An optional boolean (absent or null is nil).
    public func optionalBool(_ name: String) throws(WireError) -> Bool? {
        has(name) ? try bool(name) : nil
    }

    // MARK: Bytes

    /// Required bytes of at most `maxBytes`, standard base64 in the JSON.
    public func bytes(_ name: String, maxBytes: Int) throws(WireError) -> [UInt8] {
        let text = try string(name, maxBytes: (maxBytes + 2) / 3 * 4)
        guard let data = Data(base64Encoded: text) else { throw .invalid(named(name), "must be standard base64") }
        guard data.count <= maxBytes else { throw .invalid(named(name), "is longer than \(maxBytes) bytes") }
        return Array(data)
    }

    /// Optional bytes (absent or null is nil).
    public func optionalBytes(_ name: String, maxBytes: Int) throws(WireError) -> [UInt8]? {
        has(name) ? try bytes(name, maxBytes: maxBytes) : nil
    }

    /// Required bytes of exactly `count`.
    public func bytes(_ name: String, count: Int) throws(WireError) -> [UInt8] {
        let value = try bytes(name, maxBytes: count)
        guard value.count == count else { throw .invalid(named(name), "must be exactly \(count) bytes") }
        return value
    }

    // MARK: Arrays and objects

    /// A required array of at most `maxCount` elements.
    public func array(_ name: String, maxCount: Int) throws(WireError) -> [JSONValue] {
        let value = try required(name)
        guard case .array(let array) = value else { throw .invalid(named(name), "must be an array, not \(value.typeName)") }
        guard array.count <= maxCount else { throw .invalid(named(name), "has more than \(maxCount) elements") }
        return array
    }

    /// A required object.
    public func object(_ name: String) throws(WireError) -> WireFields {
        let value = try required(name)
        guard case .object(let object) = value else { throw .invalid(named(name), "must be an object, not \(value.typeName)") }
        return WireFields(object, path: named(name))
    }

    /// A required array of at most `maxCount` objects, each read by `body`.
    public func list<T: WireBody>(_ name: String, maxCount: Int, of body: T.Type = T.self) throws(WireError) -> [T] {
        var out: [T] = []
        for (index, item) in try array(name, maxCount: maxCount).enumerated() {
            let itemName = "\(named(name))[\(index)]"
            guard case .object(let object) = item else { throw .invalid(itemName, "must be an object, not \(item.typeName)") }
            out.append(try T(from: WireFields(object, path: itemName)))
        }
        return out
    }

    /// A required object read by `body`.
    public func nested<T: WireBody>(_ name: String, as body: T.Type = T.self) throws(WireError) -> T {
        try T(from: object(name))
    }

    /// An optional object read by `body` (absent or null is nil).
    public func optionalNested<T: WireBody>(_ name: String, as body: T.Type = T.self) throws(WireError) -> T? {
        has(name) ? try nested(name, as: body) : nil
    }

    /// A required string that must be one of `T`'s raw values.
    public func choice<T: RawRepresentable<String> & CaseIterable>(_ name: String, as type: T.Type = T.self) throws(WireError) -> T {
        let text = try string(name, maxBytes: 64)
        guard let value = T(rawValue: text) else {
            throw .invalid(named(name), "must be one of \(T.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))")
        }
        return value
    }

    /// An optional string that must be one of `T`'s raw values (absent or null is nil).
    public func optionalChoice<T: RawRepresentable<String> & CaseIterable>(_ name: String, as type: T.Type = T.self) throws(WireError) -> T? {
        has(name) ? try choice(name, as: type) : nil
    }
}
