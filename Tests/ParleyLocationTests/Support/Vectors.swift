import Foundation
@_exported import ParleyTestSupport

extension Vectors {
    /// Loads `Vectors/NAME.json` from this test target's bundle.
    static func load<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        try load(name, from: .module, as: type)
    }
}
