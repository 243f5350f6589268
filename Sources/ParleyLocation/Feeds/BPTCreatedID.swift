import Foundation

/// What the tracker server answers to `POST /new-user` and `POST /start-route`: an object whose `id`
/// names the new user or route.
public enum BPTCreatedID {
    /// Largest answer read: the object is a few hundred bytes.
    public static let maxResponseSize = 64 << 10

    /// The `id` of the answer; it becomes an HTTP header value later, so only 1…128 visible ASCII characters pass.
    public static func parse(json data: Data) throws(LocationError) -> String {
        guard data.count <= maxResponseSize else { throw .malformed("answer larger than 64 KiB") }
        guard let object = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) as? [String: Any] else {
            throw .malformed("answer is not a JSON object")
        }
        let id: String
        if let text = object["id"] as? String {
            id = text
        } else if let number = object["id"] as? NSNumber, !(object["id"] is Bool), number.doubleValue.rounded() == number.doubleValue {
            id = JSNumber.string(number.doubleValue)
        } else {
            throw .malformed("answer has no id")
        }
        try check(id)
        return id
    }

    /// Refuses an id that could not travel in an HTTP header or a link unchanged.
    public static func check(_ id: String) throws(LocationError) {
        guard (1...128).contains(id.utf8.count), id.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .malformed("id must be 1…128 visible ASCII characters")
        }
    }
}
