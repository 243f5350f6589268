import Foundation

extension WireRequest {
    /// A required string field.
    public func string(_ name: String, maxBytes: Int = 1024) throws(WireError) -> String {
        guard let value = fields[name] else { throw .missing(name) }
        guard case .string(let string) = value else { throw .invalid(name, "must be a string, not \(value.typeName)") }
        guard string.utf8.count <= maxBytes else { throw .invalid(name, "is longer than \(maxBytes) bytes") }
        return string
    }

    /// An optional string field (absent or null is nil).
    public func optionalString(_ name: String, maxBytes: Int = 1024) throws(WireError) -> String? {
        switch fields[name] {
        case nil, .null?: return nil
        default: return try string(name, maxBytes: maxBytes)
        }
    }

    /// A required integer field within `range`.
    public func integer(_ name: String, in range: ClosedRange<Int64> = 0...Int64.max) throws(WireError) -> Int64 {
        guard let value = fields[name] else { throw .missing(name) }
        guard case .number(let number) = value else { throw .invalid(name, "must be a number, not \(value.typeName)") }
        guard number.rounded() == number, let integer = Int64(exactly: number) else {
            throw .invalid(name, "must be a whole number")
        }
        guard range.contains(integer) else { throw .invalid(name, "must be between \(range.lowerBound) and \(range.upperBound)") }
        return integer
    }

    /// An optional integer field (absent or null is nil).
    public func optionalInteger(_ name: String, in range: ClosedRange<Int64> = 0...Int64.max) throws(WireError) -> Int64? {
        switch fields[name] {
        case nil, .null?: return nil
        default: return try integer(name, in: range)
        }
    }

    /// A required boolean field.
    public func bool(_ name: String) throws(WireError) -> Bool {
        guard let value = fields[name] else { throw .missing(name) }
        guard case .bool(let bool) = value else { throw .invalid(name, "must be true or false, not \(value.typeName)") }
        return bool
    }

    /// A required binary field, standard base64 in the JSON.
    public func bytes(_ name: String, maxBytes: Int) throws(WireError) -> [UInt8] {
        let text = try string(name, maxBytes: (maxBytes + 2) / 3 * 4)
        guard let data = Data(base64Encoded: text) else { throw .invalid(name, "must be standard base64") }
        guard data.count <= maxBytes else { throw .invalid(name, "is longer than \(maxBytes) bytes") }
        return Array(data)
    }

    /// An optional binary field (absent or null is nil).
    public func optionalBytes(_ name: String, maxBytes: Int) throws(WireError) -> [UInt8]? {
        switch fields[name] {
        case nil, .null?: return nil
        default: return try bytes(name, maxBytes: maxBytes)
        }
    }

    /// A required binary field of exactly `count` bytes.
    public func bytes(_ name: String, count: Int) throws(WireError) -> [UInt8] {
        let value = try bytes(name, maxBytes: count)
        guard value.count == count else { throw .invalid(name, "must be exactly \(count) bytes") }
        return value
    }

    /// A required array field of at most `maxCount` elements.
    public func array(_ name: String, maxCount: Int) throws(WireError) -> [JSONValue] {
        guard let value = fields[name] else { throw .missing(name) }
        guard case .array(let array) = value else { throw .invalid(name, "must be an array, not \(value.typeName)") }
        guard array.count <= maxCount else { throw .invalid(name, "has more than \(maxCount) elements") }
        return array
    }
}
