import Foundation
import ParleyPGP

/// The GnuPG-made fixtures in Vectors/gpg (see scripts/vectors/pgp-fixtures.sh).
enum Fixtures {
    static let passphrase = Array("correct horse battery staple".utf8)

    static func bytes(_ name: String) throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Vectors/gpg") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return [UInt8](try Data(contentsOf: url))
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try bytes(name), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func certificate(_ name: String) throws -> Certificate {
        let all = try Certificate.readAll(bytes(name))
        guard all.count == 1, let only = all.first else { throw PGPError.malformed("expected one key in \(name)") }
        return only
    }

    static var now: UInt32 { UInt32(Date().timeIntervalSince1970) }
}

extension Array where Element == UInt8 {
    /// Uppercase hex, as gpg prints fingerprints.
    var upperHex: String { map { String(format: "%02X", $0) }.joined() }
}
