import ParleyCrypto
import Testing

@Suite("Self key")
struct SelfKeyTests {
    struct File: Decodable {
        struct Valid: Decodable {
            let seed: String, key: String, nonce: String, associatedData: String, plaintext: String, sealed: String
        }
        let valid: [Valid]
    }

    /// Replays a fixed nonce so a seal can be compared with a vector.
    struct FixedRandom: RandomSource {
        let value: [UInt8]
        func bytes(_ count: Int) -> [UInt8] { Array(value.prefix(count)) }
    }

    static let file: File = try! Vectors.load("self-key")

    @Test("derivation, seal and open match the independent vectors")
    func vectors() throws {
        for vector in Self.file.valid {
            let key = SelfKey(identitySeed: [UInt8](hex: vector.seed))
            #expect(key.matches([UInt8](hex: vector.key)))
            let sealed = try key.seal(
                [UInt8](hex: vector.plaintext), associatedData: [UInt8](hex: vector.associatedData),
                random: FixedRandom(value: [UInt8](hex: vector.nonce)))
            #expect(sealed.hex == vector.sealed)
            #expect(try key.open([UInt8](hex: vector.sealed), associatedData: [UInt8](hex: vector.associatedData))
                == [UInt8](hex: vector.plaintext))
        }
    }

    @Test("wrong associated data, wrong key, flipped bits and truncation are refused")
    func negatives() throws {
        let vector = Self.file.valid[0]
        let key = SelfKey(identitySeed: [UInt8](hex: vector.seed))
        let sealed = [UInt8](hex: vector.sealed)
        let ad = [UInt8](hex: vector.associatedData)
        #expect(throws: SelfKeyError.couldNotDecrypt) { try key.open(sealed, associatedData: ad + [0]) }
        #expect(throws: SelfKeyError.couldNotDecrypt) {
            try SelfKey(identitySeed: [UInt8](repeating: 0, count: 32)).open(sealed, associatedData: ad)
        }
        for index in 1..<sealed.count {
            var mutated = sealed
            mutated[index] ^= 0x80
            #expect(throws: SelfKeyError.couldNotDecrypt) { try key.open(mutated, associatedData: ad) }
        }
        #expect(throws: SelfKeyError.unsupportedVersion) { try key.open([2] + sealed.dropFirst(), associatedData: ad) }
        for length in 0..<29 {
            #expect(throws: SelfKeyError.self) { try key.open(sealed.prefix(length), associatedData: ad) }
        }
    }

    @Test("two seals of the same plaintext differ")
    func freshNonce() throws {
        let key = SelfKey(identitySeed: [UInt8](repeating: 7, count: 32))
        #expect(try key.seal([1, 2, 3], associatedData: [UInt8]()) != key.seal([1, 2, 3], associatedData: [UInt8]()))
    }
}
