import Testing
@testable import ParleyPGP

@Suite struct S2KTests {
    struct Vector: Decodable {
        let type: Int, hash: UInt8, salt: String, count: UInt8, passphrase: String, length: Int, key: String
    }

    @Test func derivesTheKeysPythonDerives() throws {
        let vectors: [Vector] = try Vectors.load("s2k")
        #expect(vectors.count == 9)
        for vector in vectors {
            let hash = try #require(HashAlgorithm(rawValue: vector.hash))
            let salt = [UInt8](hex: vector.salt)
            let kind: S2K.Kind = switch vector.type {
            case 0: .simple
            case 1: .salted(salt: salt)
            default: .iteratedSalted(salt: salt, countByte: vector.count)
            }
            let key = try S2K(hash: hash, kind: kind).deriveKey(passphrase: [UInt8](hex: vector.passphrase), length: vector.length)
            #expect(key.hex == vector.key)
        }
    }

    @Test func decodesIterationCounts() {
        #expect(S2K.iterationCount(0) == 1024)
        #expect(S2K.iterationCount(0x60) == 65536)
        #expect(S2K.iterationCount(255) == 65_011_712)
    }

    @Test func refusesUnsupportedSpecifiersByName() {
        var stub = PacketReader([101, 2, 0x47, 0x4E, 0x55, 1])
        #expect(throws: PGPError.self) { try S2K.read(from: &stub) }
        var unknownHash = PacketReader([0, 1])
        #expect(throws: PGPError.unsupported("hash algorithm 1")) { try S2K.read(from: &unknownHash) }
        #expect(throws: PGPError.unsupported("symmetric cipher CAST5")) { try SymmetricAlgorithm.from(3) }
        #expect(throws: PGPError.unsupported("symmetric cipher IDEA")) { try SymmetricAlgorithm.from(1) }
        #expect(throws: PGPError.unsupported("symmetric cipher TripleDES")) { try SymmetricAlgorithm.from(2) }
    }
}
