import Foundation
@testable import ParleyClient
import ParleyClientFormats
import ParleyLocation
import Testing

/// The `location_key` content against vectors from an independent encoder (scripts/vectors/parley_location_key_vectors.py).
@Suite("Client: location key content vectors")
struct LocationKeyContentTests {
    struct Valid: Decodable { let name: String; let json: String; let key: String; let epoch: Int64 }
    struct Invalid: Decodable { let name: String; let json: String; let why: String? }
    struct File: Decodable { let valid: [Valid]; let invalid_content: [Invalid]; let invalid_key: [Invalid] }

    @Test func validContentsDecodeToTheirKeyAndEncodeByteForByte() throws {
        let file = try Vectors.load("location-key", as: File.self)
        #expect(file.valid.count == 3)
        for vector in file.valid {
            let bytes = [UInt8](hex: vector.json)
            let content = try MessageContent.decode(bytes)
            let checked = try #require(try content.location?.checked().get(), "\(vector.name)")
            #expect(checked.key.bytes == [UInt8](hex: vector.key) && checked.epoch == vector.epoch, "\(vector.name)")
            #expect(content.encoded() == bytes, "\(vector.name)")
            // What the sharer writes for the same key is the same object.
            #expect(LocationKeyContent(key: checked.key, epoch: vector.epoch) == content.location, "\(vector.name)")
        }
    }

    @Test func misshapenContentsAreRefusedWhole() throws {
        let file = try Vectors.load("location-key", as: File.self)
        #expect(file.invalid_content.count == 5)
        for vector in file.invalid_content {
            #expect(throws: ClientFormatError.unreadable, "\(vector.name)") { try MessageContent.decode([UInt8](hex: vector.json)) }
        }
    }

    @Test func badKeysAreRefusedWithAReasonThatHoldsNoKey() throws {
        let file = try Vectors.load("location-key", as: File.self)
        #expect(file.invalid_key.count == 14)
        for vector in file.invalid_key {
            let content = try MessageContent.decode([UInt8](hex: vector.json))
            let location = try #require(content.location, "\(vector.name)")
            guard case .failure(let error) = location.checked() else {
                Issue.record("\(vector.name) was accepted")
                continue
            }
            #expect(error.description.contains(try #require(vector.why)), "\(vector.name): \(error)")
            if let key = location.key, key.count > 8 { #expect(!error.description.contains(key), "\(vector.name)") }
        }
    }

    @Test func aRingKeepsKeysNewestFirstWithoutDuplicatesAndBounded() throws {
        var ring = LocationKeyRing()
        let first = LocationKey.random(), second = LocationKey.random()
        let added = (ring.add(first, epoch: 1, now: 0), ring.add(second, epoch: 2, now: 1))
        let again = ring.add(first, epoch: 5, now: 2)   // the same key again changes nothing
        #expect(added == (true, true) && !again)
        #expect(ring.entries.map(\.epoch) == [2, 1] && ring.current?.key == Data(second.bytes))
        for epoch in 3...80 { _ = ring.add(.random(), epoch: Int64(epoch), now: 3) }
        #expect(ring.entries.count == LocationKeyRing.maximumKeys && ring.current?.epoch == 80)
        #expect(!ring.entries.contains { $0.key == Data(first.bytes) })   // the oldest went first
    }
}
