import Crypto
import ParleyCrypto

/// A device's signed request that another device send some messages again, because it could not decrypt
/// them (docs/CLIENT.md §2.1): the body of client envelope kind `0x04`.
///
/// It travels unencrypted, since the session it would need may be the broken part, and is signed with the
/// requester's identity key, so the server, which relays it, can neither forge one nor alter one.
package struct RetryRequest: Equatable, Sendable {
    /// The request format version.
    package static let version: UInt8 = 0x01
    /// At most this many message ids in one request.
    package static let maximumMessages = 32
    /// The server-visible `kind` of a retry request's message, and of a re-send answering one.
    package static let kind = "retry"
    package static let resendKind = "resend"
    /// What the signature covers, before the unsigned bytes.
    package static let signingContext = Array("Parley-retry-request-v1".utf8)

    package var accountID: Int64
    package var deviceID: UInt32
    package var recipientAccountID: Int64
    package var recipientDeviceID: UInt32
    package var conversationID: Int64
    /// When the requester made it, in milliseconds since 1970.
    package var created: Int64
    /// The server ids of the messages that could not be read, 1…32, distinct.
    package var messageIDs: [Int64]
    package var signature: [UInt8]

    /// Builds and signs a request with the requester's identity key.
    package init(
        accountID: Int64, deviceID: UInt32, recipientAccountID: Int64, recipientDeviceID: UInt32, conversationID: Int64,
        created: Int64, messageIDs: [Int64], signingKey: Curve25519.Signing.PrivateKey
    ) {
        self.accountID = accountID
        self.deviceID = deviceID
        self.recipientAccountID = recipientAccountID
        self.recipientDeviceID = recipientDeviceID
        self.conversationID = conversationID
        self.created = created
        self.messageIDs = messageIDs
        self.signature = []
        // Signing with a valid key does not fail.
        self.signature = Array(try! signingKey.signature(for: Self.signingContext + unsignedBytes))
    }

    /// Reads a request's bytes; anything but exactly this format is "cannot decrypt". The signature is
    /// checked separately (`isSigned(by:)`), by whoever knows the requester's identity key.
    package init(serialized bytes: [UInt8]) throws(ClientFormatError) {
        var reader = ByteReader(bytes)
        do {
            guard try reader.readUInt8() == Self.version else { throw ClientFormatError.unreadable }
            accountID = Int64(bitPattern: try reader.readUInt64())
            deviceID = try reader.readUInt32()
            recipientAccountID = Int64(bitPattern: try reader.readUInt64())
            recipientDeviceID = try reader.readUInt32()
            conversationID = Int64(bitPattern: try reader.readUInt64())
            created = Int64(bitPattern: try reader.readUInt64())
            let count = Int(try reader.readUInt8())
            guard (1...Self.maximumMessages).contains(count), reader.remaining == 8 * count + 64 else { throw ClientFormatError.unreadable }
            var ids: [Int64] = []
            for _ in 0..<count { ids.append(Int64(bitPattern: try reader.readUInt64())) }
            messageIDs = ids
            signature = reader.readRest()
        } catch {
            throw .unreadable
        }
        guard Set(messageIDs).count == messageIDs.count,
              ([accountID, recipientAccountID, conversationID, created] + messageIDs).allSatisfy({ $0 >= 0 })
        else { throw .unreadable }
    }

    /// The bytes the signature covers (after the context string): everything but the signature.
    package var unsignedBytes: [UInt8] {
        var out: [UInt8] = [Self.version]
        out.appendBigEndian(UInt64(accountID))
        out.appendBigEndian(deviceID)
        out.appendBigEndian(UInt64(recipientAccountID))
        out.appendBigEndian(recipientDeviceID)
        out.appendBigEndian(UInt64(conversationID))
        out.appendBigEndian(UInt64(created))
        out.append(UInt8(messageIDs.count))
        for id in messageIDs { out.appendBigEndian(UInt64(id)) }
        return out
    }

    package var serialized: [UInt8] { unsignedBytes + signature }

    /// Whether `identityKey` (a 32-byte Ed25519 public key) made the signature.
    package func isSigned(by identityKey: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: identityKey) else { return false }
        return key.isValidSignature(signature, for: Self.signingContext + unsignedBytes)
    }
}
