import ParleyWire

/// A JSON object as the load generator sends and receives it.
typealias JSONObject = [String: JSONValue]

extension JSONObject {
    /// A whole-number field.
    func int(_ key: String) -> Int? {
        guard case .number(let number)? = self[key] else { return nil }
        return Int(exactly: number)
    }

    /// A string field.
    func string(_ key: String) -> String? {
        guard case .string(let text)? = self[key] else { return nil }
        return text
    }

    /// The error code of a failed response.
    var errorCode: String? {
        guard case .object(let error)? = self["error"], case .string(let code)? = error["code"] else { return nil }
        return code
    }

    /// The object as the JSON line it came in, for error messages.
    var text: String {
        (try? JSONWriter.bytes(.object(self))).map { String(decoding: $0, as: UTF8.self) } ?? "(unprintable)"
    }
}
