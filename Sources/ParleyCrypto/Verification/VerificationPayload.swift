#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a verification QR code carries: an account id and its Ed25519 identity key.
///
/// Layout: `version(1) = 0x01 || idLength(1) || id (UTF-8) || identityKey(32)`.
/// Decoding is strict: any byte too many or too few is an error.
public struct VerificationPayload: Sendable, Hashable {
    /// The only payload version this build reads and writes.
    public static let version: UInt8 = 0x01
    /// Length of an Ed25519 public key.
    public static let identityKeyLength = 32

    /// The account id (for example an e-mail address).
    public let accountID: String
    /// The 32-byte Ed25519 identity public key.
    public let identityKey: [UInt8]

    /// Makes a payload, checking that it can be encoded.
    public init<D: DataProtocol>(accountID: String, identityKey: D) throws(VerificationError) {
        let idBytes = Array(accountID.utf8)
        guard (1...255).contains(idBytes.count) else { throw .invalidAccountID }
        guard identityKey.count == Self.identityKeyLength else { throw .invalidIdentityKey }
        self.accountID = accountID
        self.identityKey = Array(identityKey)
    }

    /// Decodes payload bytes, refusing anything `encoded()` could not have produced.
    public init<D: DataProtocol>(decoding data: D) throws(VerificationError) {
        var reader = ByteReader(data)
        do {
            let version = try reader.readUInt8()
            guard version == Self.version else { throw VerificationError.unsupportedVersion(version) }
            let idLength = Int(try reader.readUInt8())
            let idBytes = try reader.read(idLength)
            let key = try reader.read(Self.identityKeyLength)
            guard reader.isAtEnd else { throw VerificationError.malformedPayload }
            guard idLength > 0, let id = String(validating: idBytes, as: UTF8.self) else {
                throw VerificationError.invalidAccountID
            }
            self.accountID = id
            self.identityKey = key
        } catch let error as VerificationError {
            throw error
        } catch {
            throw .malformedPayload
        }
    }

    /// The payload's bytes.
    public func encoded() -> [UInt8] {
        let idBytes = Array(accountID.utf8)
        return [Self.version, UInt8(idBytes.count)] + idBytes + identityKey
    }
}
