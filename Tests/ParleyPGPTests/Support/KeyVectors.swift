import Foundation
import ParleyPGP

/// The GnuPG-made key-maintenance vectors in Vectors/keys (scripts/vectors/key-maintenance-fixtures.sh).
enum KeyVectors {
    static func certificate(_ name: String) throws -> Certificate {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Vectors/keys") else {
            throw CocoaError(.fileNoSuchFile)
        }
        let all = try Certificate.readAll([UInt8](try Data(contentsOf: url)))
        guard all.count == 1, let only = all.first else { throw PGPError.malformed("expected one key in \(name)") }
        return only
    }

    /// gpg's `--with-colons` records of type `kind` (`pub`, `uid`, `sub`, `sig`, …), split into fields.
    static func records(_ listing: [UInt8], _ kind: String) -> [[Substring]] {
        String(decoding: listing, as: UTF8.self).split(separator: "\n")
            .map { $0.split(separator: ":", omittingEmptySubsequences: false) }
            .filter { $0.first.map(String.init) == kind }
    }
}
