import Foundation

/// Loads and (when asked) rewrites the known-answer vector files stored beside the tests.
enum Vectors {
    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "vector file \(name).json is missing from the test bundle" }
    }

    /// Set PARLEY_WRITE_VECTORS=1 to rewrite the committed files from the generator.
    static var shouldWrite: Bool { ProcessInfo.processInfo.environment["PARLEY_WRITE_VECTORS"] == "1" }

    static func load<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors") else {
            throw Missing(name: name)
        }
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }

    static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value) + Data("\n".utf8)
    }

    /// Writes `value` into the source tree's Vectors folder.
    static func write<T: Encodable>(_ value: T, name: String) throws {
        // This file sits in Support/, so the source Vectors folder is one level up.
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors")
        try encode(value).write(to: folder.appendingPathComponent("\(name).json"))
    }
}

extension Array where Element == UInt8 {
    /// Decodes a hex string; traps on bad input because vector files are ours.
    init(hex: String) {
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
    var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
