import Foundation
import ParleyWire

/// Typed reads of a server response, failing with `.badResponse` naming the field.
extension [String: JSONValue] {
    func int(_ name: String) throws(ClientError) -> Int64 {
        guard case .number(let value)? = self[name], let int = Int64(exactly: value) else { throw .badResponse("'\(name)' is not a number") }
        return int
    }

    func optionalInt(_ name: String) -> Int64? {
        if case .number(let value)? = self[name] { Int64(exactly: value) } else { nil }
    }

    func string(_ name: String) throws(ClientError) -> String {
        guard case .string(let value)? = self[name] else { throw .badResponse("'\(name)' is not a string") }
        return value
    }

    func optionalString(_ name: String) -> String? {
        if case .string(let value)? = self[name] { value } else { nil }
    }

    func bytes(_ name: String) throws(ClientError) -> [UInt8] {
        guard case .string(let text)? = self[name], let data = Data(base64Encoded: text) else { throw .badResponse("'\(name)' is not base64") }
        return Array(data)
    }

    func bool(_ name: String) -> Bool {
        if case .bool(true)? = self[name] { true } else { false }
    }

    func objects(_ name: String) throws(ClientError) -> [[String: JSONValue]] {
        guard case .array(let items)? = self[name] else { throw .badResponse("'\(name)' is not a list") }
        var out: [[String: JSONValue]] = []
        for item in items {
            guard case .object(let object) = item else { throw .badResponse("'\(name)' holds a non-object") }
            out.append(object)
        }
        return out
    }

    func ints(_ name: String) throws(ClientError) -> [Int64] {
        guard case .array(let items)? = self[name] else { throw .badResponse("'\(name)' is not a list") }
        return items.compactMap { if case .number(let n) = $0 { Int64(exactly: n) } else { nil } }
    }
}
