import Foundation
import Testing
@_exported import ParleyTestSupport

extension Vectors {
    /// Loads `Vectors/NAME.json` from this test target's bundle.
    static func load<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        try load(name, from: .module, as: type)
    }

    /// The raw bytes of `Vectors/FILE`.
    static func bytes(_ file: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: file, withExtension: nil, subdirectory: "Vectors"))
        return Array(try Data(contentsOf: url))
    }
}
