import Crypto
import Foundation
@testable import ParleyClient
import ParleyClientFormats
import Testing

/// The title proof of a `group_title` content (docs/CLIENT.md §8.1) against vectors made by an independent signer
/// (scripts/vectors/parley_group_title_vectors.py, Python's `cryptography`).
@Suite("Client: group title proof vectors")
struct GroupTitleProofTests {
    struct Valid: Decodable {
        let name: String; let conversation_id: Int64; let version: Int64; let title: String
        let signed: String; let signature: String; let json: String
    }
    struct NotHolding: Decodable { let name: String; let conversation_id: Int64; let version: Int64; let title: String; let signature: String }
    struct Invalid: Decodable { let name: String; let json: String }
    struct File: Decodable {
        let creator_seed: String; let creator_public: String; let other_public: String
        let valid: [Valid]; let not_holding: [NotHolding]; let invalid_content: [Invalid]
    }

    @Test func validProofsSignTheDocumentedBytesAndReadAndWriteByteForByte() throws {
        let file = try Vectors.load("group-title-proof", as: File.self)
        #expect(file.valid.count == 4)
        let creator = try Curve25519.Signing.PrivateKey(rawRepresentation: [UInt8](hex: file.creator_seed))
        #expect(Array(creator.publicKey.rawRepresentation) == [UInt8](hex: file.creator_public))
        for vector in file.valid {
            let signed = GroupTitleProof.signedBytes(title: vector.title, conversationID: vector.conversation_id, version: vector.version)
            #expect(signed == [UInt8](hex: vector.signed), "\(vector.name)")
            // Ed25519 is deterministic: the same key signs the same bytes the same way.
            let made = GroupTitleProof(title: vector.title, conversationID: vector.conversation_id, version: vector.version, signingKey: creator)
            #expect(Data(base64Encoded: made.signature) == Data([UInt8](hex: vector.signature)), "\(vector.name)")

            let bytes = [UInt8](hex: vector.json)
            let content = try MessageContent.decode(bytes)
            let proof = try #require(content.titleProof, "\(vector.name)")
            #expect(content.type == "group_title" && content.text == vector.title && proof == made, "\(vector.name)")
            #expect(proof.holds(title: vector.title, conversationID: vector.conversation_id, identityKey: [UInt8](hex: file.creator_public)))
            #expect(!proof.holds(title: vector.title, conversationID: vector.conversation_id, identityKey: [UInt8](hex: file.other_public)))
            #expect(content.encoded() == bytes, "\(vector.name): written back byte for byte")
        }
    }

    @Test func proofsThatDoNotHoldForThisCreatorConversationOrTitleAreNotBelieved() throws {
        let file = try Vectors.load("group-title-proof", as: File.self)
        #expect(file.not_holding.count == 6)
        let creator = [UInt8](hex: file.creator_public)
        for vector in file.not_holding {
            let proof = GroupTitleProof(version: vector.version, signature: Data([UInt8](hex: vector.signature)).base64EncodedString())
            #expect(proof.isWellFormed, "\(vector.name)")
            #expect(!proof.holds(title: vector.title, conversationID: vector.conversation_id, identityKey: creator), "\(vector.name)")
        }
        // Nor does any proof hold for a key that is not 32 bytes.
        let valid = try #require(file.valid.first)
        let proof = try #require(try MessageContent.decode([UInt8](hex: valid.json)).titleProof)
        #expect(!proof.holds(title: valid.title, conversationID: valid.conversation_id, identityKey: Array(creator.prefix(31))))
        #expect(!proof.holds(title: valid.title, conversationID: valid.conversation_id, identityKey: []))
    }

    @Test func misshapenProofsMakeTheWholeContentUnreadable() throws {
        let file = try Vectors.load("group-title-proof", as: File.self)
        #expect(file.invalid_content.count == 13)
        for vector in file.invalid_content {
            #expect(throws: ClientFormatError.unreadable, "\(vector.name)") { try MessageContent.decode([UInt8](hex: vector.json)) }
        }
    }
}
