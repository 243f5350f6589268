import Crypto
import Foundation
@testable import ParleyClient
import ParleyClientFormats
import Testing

/// docs/CLIENT.md §2–3 against an independent Python encoder's vectors.
@Suite("Client envelope and content vectors")
struct ClientEnvelopeVectorTests {
    struct File: Decodable {
        struct Envelope: Decodable {
            let name: String, hex: String
            let kind: String?, body: String?, distribution: String?, message: String?
        }
        struct Content: Decodable { let name: String, json: String }
        struct Set<T: Decodable>: Decodable { let valid: [T], invalid: [T] }
        struct Retry: Decodable {
            let name: String, hex: String
            let account_id: Int64?, device_id: UInt32?, to_account_id: Int64?, to_device_id: UInt32?
            let conversation_id: Int64?, created: Int64?, message_ids: [Int64]?
        }
        struct Retries: Decodable { let requester_identity_key: String, valid: [Retry], invalid: [Retry] }
        let envelopes: Set<Envelope>
        let contents: Set<Content>
        let retry_requests: Retries
    }

    @Test func validEnvelopesDecodeAndReencodeExactly() throws {
        let file = try Vectors.load("client-envelope", as: File.self)
        for vector in file.envelopes.valid {
            let bytes = [UInt8](hex: vector.hex)
            let envelope = try ClientEnvelope(serialized: bytes)
            switch (vector.kind, envelope) {
            case ("pairwise", .pairwise(let body)): #expect(body == [UInt8](hex: vector.body!), "\(vector.name)")
            case ("group", .group(let distribution, let message)):
                #expect(distribution == vector.distribution.map { [UInt8](hex: $0) }, "\(vector.name)")
                #expect(message == [UInt8](hex: vector.message!), "\(vector.name)")
            default: Issue.record("\(vector.name): decoded as the wrong kind")
            }
            #expect(envelope.serialized == bytes, "\(vector.name) re-encodes to other bytes")
        }
    }

    @Test func invalidEnvelopesAreRefused() throws {
        let file = try Vectors.load("client-envelope", as: File.self)
        for vector in file.envelopes.invalid {
            #expect(throws: ClientFormatError.unreadable, "\(vector.name)") { try ClientEnvelope(serialized: [UInt8](hex: vector.hex)) }
        }
    }

    @Test func contentsDecodeAndEncodeCanonically() throws {
        let file = try Vectors.load("client-envelope", as: File.self)
        for vector in file.contents.valid {
            let bytes = [UInt8](hex: vector.json)
            #expect(try MessageContent.decode(bytes).encoded() == bytes, "\(vector.name)")
        }
        for vector in file.contents.invalid {
            #expect(throws: ClientFormatError.unreadable, "\(vector.name)") { try MessageContent.decode([UInt8](hex: vector.json)) }
        }
    }

    @Test func retryRequestsDecodeVerifyAndReencodeExactly() throws {
        let file = try Vectors.load("client-envelope", as: File.self)
        let key = [UInt8](hex: file.retry_requests.requester_identity_key)
        for vector in file.retry_requests.valid {
            let bytes = [UInt8](hex: vector.hex)
            guard case .retryRequest(let request) = try ClientEnvelope(serialized: bytes) else {
                Issue.record("\(vector.name): not a retry request"); continue
            }
            #expect(request.accountID == vector.account_id && request.deviceID == vector.device_id, "\(vector.name)")
            #expect(request.recipientAccountID == vector.to_account_id && request.recipientDeviceID == vector.to_device_id, "\(vector.name)")
            #expect(request.conversationID == vector.conversation_id && request.created == vector.created, "\(vector.name)")
            #expect(request.messageIDs == vector.message_ids, "\(vector.name)")
            #expect(request.isSigned(by: key), "\(vector.name)")
            #expect(!request.isSigned(by: [UInt8](repeating: 0, count: 32)) && !request.isSigned(by: Array(key.dropLast())), "\(vector.name)")
            #expect(ClientEnvelope.retryRequest(request).serialized == bytes, "\(vector.name) re-encodes to other bytes")
        }
        for vector in file.retry_requests.invalid {
            // Refused as bytes, or (for a signature that does not hold) refused when checked against the key.
            if case .retryRequest(let request)? = try? ClientEnvelope(serialized: [UInt8](hex: vector.hex)) {
                #expect(!request.isSigned(by: key), "\(vector.name) was accepted")
            }
        }
    }

    @Test func aRequestWeSignVerifiesWithOurKeyOnly() throws {
        let key = Curve25519.Signing.PrivateKey()
        let request = RetryRequest(accountID: 7, deviceID: 2, recipientAccountID: 8, recipientDeviceID: 1, conversationID: 12,
                                   created: 1_800_000_000_123, messageIDs: [9041, 9042], signingKey: key)
        #expect(request.isSigned(by: Array(key.publicKey.rawRepresentation)))
        #expect(!request.isSigned(by: Array(Curve25519.Signing.PrivateKey().publicKey.rawRepresentation)))
        #expect(try RetryRequest(serialized: request.serialized) == request)
    }

    @Test func garbageNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? ClientEnvelope(serialized: bytes)
            _ = try? ClientEnvelope(serialized: [1, 4] + bytes)
            _ = try? RetryRequest(serialized: bytes)
            _ = try? MessageContent.decode(bytes)
        }
    }
}
