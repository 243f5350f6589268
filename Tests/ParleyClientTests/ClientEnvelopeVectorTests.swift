import Foundation
@testable import ParleyClient
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
        let envelopes: Set<Envelope>
        let contents: Set<Content>
    }

    @Test func validEnvelopesDecodeAndReencodeExactly() throws {
        let file = try Vectors.load("client-envelope", as: File.self)
        for vector in file.envelopes.valid {
            let bytes = [UInt8](hex: vector.hex)
            let envelope = try ClientEnvelope(serialized: bytes)
            switch (vector.kind, envelope) {
            case ("pairwise", .pairwise(let body)): #expect(body == [UInt8](hex: vector.body!), "\(vector.name)")
            case ("self", .selfCopy(let body)): #expect(body == [UInt8](hex: vector.body!), "\(vector.name)")
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
            #expect(throws: ClientError.cannotDecrypt, "\(vector.name)") { try ClientEnvelope(serialized: [UInt8](hex: vector.hex)) }
        }
    }

    @Test func contentsDecodeAndEncodeCanonically() throws {
        let file = try Vectors.load("client-envelope", as: File.self)
        for vector in file.contents.valid {
            let bytes = [UInt8](hex: vector.json)
            #expect(try MessageContent.decode(bytes).encoded() == bytes, "\(vector.name)")
        }
        for vector in file.contents.invalid {
            #expect(throws: ClientError.cannotDecrypt, "\(vector.name)") { try MessageContent.decode([UInt8](hex: vector.json)) }
        }
    }

    @Test func garbageNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? ClientEnvelope(serialized: bytes)
            _ = try? MessageContent.decode(bytes)
        }
    }
}
