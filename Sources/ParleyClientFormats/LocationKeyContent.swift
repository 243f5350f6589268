import Foundation
import ParleyLocation

/// The `location` object of a `location_key` message (docs/CLIENT.md §11): a sharer's v2 key, sent
/// end-to-end to one follower. Every field is optional here so a malformed object still decodes and the
/// receiver can say exactly what was wrong instead of dropping the whole message as undecryptable.
package struct LocationKeyContent: Codable, Sendable, Equatable {
    /// The content `type` that carries this object.
    package static let type = "location_key"
    /// The version of this object.
    package static let version = 1
    /// Highest epoch accepted: JSON numbers are exact below 2^53.
    package static let maximumEpoch: Int64 = (1 << 53) - 1

    /// Version of the object: 1.
    package var v: Int?
    /// The 32-byte v2 key, standard base64.
    package var key: String?
    /// The sharer's key counter: 1 for the first key, one more for each rotation.
    package var epoch: Int64?

    /// The object for a key, as the sharer writes it.
    package init(key: LocationKey, epoch: Int64) {
        v = Self.version
        self.key = Data(key.bytes).base64EncodedString()
        self.epoch = epoch
    }

    /// The object exactly as given (tests build broken ones with it).
    package init(v: Int?, key: String?, epoch: Int64?) {
        self.v = v
        self.key = key
        self.epoch = epoch
    }

    /// The key and epoch, or why this object cannot be used (never echoing the key).
    package func checked() -> Result<(key: LocationKey, epoch: Int64), LocationKeyContentError> {
        guard v == Self.version else { return .failure(.init("unsupported version \(v.map(String.init) ?? "none") (made by a newer Parley?)")) }
        guard let epoch, (1...Self.maximumEpoch).contains(epoch) else { return .failure(.init("epoch must be 1…2^53-1")) }
        // Canonical only (re-encoding gives the same text), so one key has exactly one form.
        guard let key, key.utf8.count == 44, let bytes = Data(base64Encoded: key), bytes.base64EncodedString() == key else {
            return .failure(.init("the key is not 44 characters of standard base64"))
        }
        guard let parsed = try? LocationKey(bytes: bytes) else { return .failure(.init("the key is not 32 bytes")) }
        return .success((parsed, epoch))
    }
}

/// Why a received location key was ignored.
package struct LocationKeyContentError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
