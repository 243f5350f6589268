import Foundation

/// Loads the known-answer vector files stored beside each test target.
public enum Vectors {
    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "vector file \(name).json is missing from the test bundle" }
    }

    /// Decodes `Vectors/NAME.json` from `bundle` (pass the test target's `Bundle.module`).
    public static func load<T: Decodable>(_ name: String, from bundle: Bundle, as type: T.Type = T.self) throws -> T {
        guard let url = bundle.url(forResource: name, withExtension: "json", subdirectory: "Vectors") else {
            throw Missing(name: name)
        }
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }
}

extension Array where Element == UInt8 {
    /// Decodes a hex string; traps on bad input because vector files are ours.
    public init(hex: String) {
        precondition(hex.count % 2 == 0, "odd-length hex in a vector file")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self = bytes
    }

    /// Lower-case hex.
    public var hex: String { map { String(format: "%02x", $0) }.joined() }
}

extension Data {
    /// Lower-case hex.
    public var hex: String { Array(self).hex }
}
