import Crypto
import Foundation
@testable import ParleyVault
import Testing

@Suite("Vault sealed values")
struct SealedValueTests {
    let vectors = SealedVectors.shared

    @Test("the Python vectors open, and sealing with their nonce gives their bytes", arguments: SealedVectors.shared.valid.map(\.name))
    func validVector(name: String) throws {
        let vector = vectors.valid.first { $0.name == name }!
        let key = try MainKey(bytes: [UInt8](hex: vector.key))
        let opened = try key.open([UInt8](hex: vector.sealed), binding: vector.binding)
        #expect(opened == [UInt8](hex: vector.plaintext))
        let resealed = key.seal(
            [UInt8](hex: vector.plaintext), binding: vector.binding,
            nonce: try AES.GCM.Nonce(data: [UInt8](hex: vector.nonce)))
        #expect(resealed.hex == vector.sealed)
    }

    @Test("invalid vectors fail with the error they name", arguments: SealedVectors.shared.invalid.map(\.name))
    func invalidVector(name: String) throws {
        let vector = vectors.invalid.first { $0.name == name }!
        let key = try MainKey(bytes: [UInt8](hex: vector.key))
        #expect(vaultError { try key.open([UInt8](hex: vector.sealed), binding: vector.binding) } == vector.expected)
    }

    @Test("subkeys match HKDF-SHA256 in the vectors and differ per purpose")
    func subkeys() throws {
        var seen: Set<String> = []
        for vector in vectors.subkeys {
            let key = try MainKey(bytes: [UInt8](hex: vector.key))
            let subkey = key.subkey(purpose: vector.purpose).withUnsafeBytes { Array($0) }
            #expect(subkey.hex == vector.subkey, "purpose \(vector.purpose)")
            seen.insert(subkey.hex)
        }
        #expect(seen.count == vectors.subkeys.count)
        let key = MainKey.generate()
        #expect(key.subkey(purpose: "x").withUnsafeBytes { Array($0) } != key.withUnsafeBytes { Array($0) })
    }

    @Test("round trip, fresh nonce per seal, and the seal is 29 bytes longer")
    func roundTrip() throws {
        let key = MainKey.generate()
        for length in [0, 1, 15, 16, 17, 1000, 70_000] {
            let plaintext = [UInt8]((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let first = key.seal(plaintext, binding: "rows/\(length)")
            let second = key.seal(plaintext, binding: "rows/\(length)")
            #expect(first.count == length + 29)
            #expect(first != second)
            #expect(try key.open(first, binding: "rows/\(length)") == plaintext)
            #expect(try key.open(Data(second), binding: "rows/\(length)") == plaintext)
        }
    }

    @Test("a value moved to another row or sealed under another key does not open")
    func bindingAndKey() {
        let key = MainKey.generate()
        let a = key.seal(Array("alice's session".utf8), binding: "sessions/ann@x.org.1")
        let b = key.seal(Array("bob's session".utf8), binding: "sessions/ann@x.org.2")
        // Swapping two ciphertexts between rows is detected both ways.
        #expect(vaultError { try key.open(a, binding: "sessions/ann@x.org.2") } == .cannotDecrypt)
        #expect(vaultError { try key.open(b, binding: "sessions/ann@x.org.1") } == .cannotDecrypt)
        #expect(vaultError { try MainKey.generate().open(a, binding: "sessions/ann@x.org.1") } == .cannotDecrypt)
        // A binding that only differs by a prefix or suffix is another binding.
        #expect(vaultError { try key.open(a, binding: "sessions/ann@x.org.") } == .cannotDecrypt)
        #expect(vaultError { try key.open(a, binding: "sessions/ann@x.org.11") } == .cannotDecrypt)
    }

    @Test("every single-bit flip and every truncation is refused without a crash")
    func tamper() {
        let key = MainKey.generate()
        let sealed = key.seal(Array("attack at dawn".utf8), binding: "b")
        for index in sealed.indices {
            for bit in 0..<8 {
                var altered = sealed
                altered[index] ^= 1 << bit
                let error = vaultError { try key.open(altered, binding: "b") }
                #expect(error == (index == 0 ? .unsupportedVersion(altered[0]) : .cannotDecrypt))
            }
        }
        for length in 0..<sealed.count {
            let error = vaultError { try key.open(sealed.prefix(length), binding: "b") }
            #expect(error == (length < MainKey.sealOverhead ? .corrupt : .cannotDecrypt))
        }
        #expect(vaultError { try key.open(sealed + [0], binding: "b") } == .cannotDecrypt)
    }

    @Test("random garbage of any size is refused, never a crash")
    func garbage() {
        let key = MainKey.generate()
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 2, 28, 29, 30, 100, 1 << 16] {
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !bytes.isEmpty { bytes[0] = 0x01 }
            #expect(vaultError { try key.open(bytes, binding: "g") } != nil)
        }
    }

    @Test("MainKey from bytes: exactly 32 bytes; equality compares the key")
    func mainKeyBytes() throws {
        #expect(vaultError { try MainKey(bytes: [UInt8](repeating: 1, count: 31)) } == .corrupt)
        #expect(vaultError { try MainKey(bytes: [UInt8](repeating: 1, count: 33)) } == .corrupt)
        #expect(vaultError { try MainKey(bytes: []) } == .corrupt)
        let key = try MainKey(bytes: [UInt8](repeating: 7, count: 32))
        #expect(key == (try MainKey(bytes: [UInt8](repeating: 7, count: 32))))
        #expect(key != MainKey.generate())
        #expect(MainKey.generate() != MainKey.generate())
    }
}
