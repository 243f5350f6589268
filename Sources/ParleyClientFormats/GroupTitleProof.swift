import Crypto
import Foundation
import ParleyCrypto

/// The creator's signature over a group's title (docs/CLIENT.md §8.1), carried in a `group_title` content as
/// `title_proof`, so that any member can pass the title on to a newcomer who believes it only from the creator.
package struct GroupTitleProof: Codable, Sendable, Equatable {
    /// What every signed title begins with; no other signature of an identity key does.
    package static let signingContext = Array("Parley-group-title-v1".utf8)
    /// The largest version: JSON numbers stay exact up to 2^53 − 1.
    package static let maximumVersion: Int64 = 9_007_199_254_740_991

    /// The creator's clock in milliseconds when it set the title (or one past the previous version); larger is newer.
    package var version: Int64
    /// Ed25519 by the creator's identity key over `signedBytes`, as 88 characters of standard base64.
    package var signature: String

    /// A proof as it was read (checked by `isWellFormed` and `holds`).
    package init(version: Int64, signature: String) {
        self.version = version
        self.signature = signature
    }

    /// Signs `title` of `conversationID` at `version` with the creator's identity key.
    package init(title: String, conversationID: Int64, version: Int64, signingKey: Curve25519.Signing.PrivateKey) {
        self.version = version
        // Signing with a valid key does not fail.
        let bytes = try! signingKey.signature(for: Self.signedBytes(title: title, conversationID: conversationID, version: version))
        signature = Data(bytes).base64EncodedString()
    }

    /// Whether the proof is shaped as §8.1 says: a version in range and exactly 64 bytes of canonical base64.
    package var isWellFormed: Bool {
        (1...Self.maximumVersion).contains(version) && signatureBytes != nil
    }

    /// Whether `identityKey` (the creator's 32-byte Ed25519 public key) signed `title` of `conversationID`.
    package func holds(title: String, conversationID: Int64, identityKey: [UInt8]) -> Bool {
        guard let signature = signatureBytes,
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: identityKey)
        else { return false }
        return key.isValidSignature(signature, for: Self.signedBytes(title: title, conversationID: conversationID, version: version))
    }

    /// The bytes the signature covers: the context, the conversation id and the version (8 bytes each, big-endian),
    /// then the title's UTF-8.
    package static func signedBytes(title: String, conversationID: Int64, version: Int64) -> [UInt8] {
        var out = signingContext
        out.appendBigEndian(UInt64(bitPattern: conversationID))
        out.appendBigEndian(UInt64(bitPattern: version))
        out.append(contentsOf: title.utf8)
        return out
    }

    /// The signature's 64 bytes, or nil when the text is not their canonical base64.
    private var signatureBytes: [UInt8]? {
        guard let data = Data(base64Encoded: signature), data.count == 64, data.base64EncodedString() == signature else { return nil }
        return Array(data)
    }
}
