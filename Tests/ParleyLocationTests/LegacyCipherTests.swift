import Foundation
import ParleyLocation
import Testing

@Suite struct LegacyCipherTests {
    @Test func knownAnswersEncryptAndDecrypt() throws {
        let vectors = try Vectors.load("legacy", as: LegacyVectors.self)
        #expect(vectors.valid.count >= 19)
        for vector in vectors.valid {
            let key = try LegacyKey(bytes: [UInt8](hex: vector.key))
            let stored = try LegacyCipher.encrypt(text: vector.text, key: key, iv: [UInt8](hex: vector.iv))
            #expect(stored == vector.stored, "\(vector.comment)")
            #expect(try LegacyCipher.decryptText(vector.stored, key: key) == vector.text, "\(vector.comment)")
            #expect(try LegacyCipher.decryptNumber(vector.stored, key: key) == vector.number, "\(vector.comment)")
        }
    }

    @Test func issueVectorIsPinned() throws {
        let key = try LegacyKey(base64: Data([UInt8](hex: "000102030405060708090a0b0c0d0e0f")).base64EncodedString())
        #expect(try LegacyCipher.decryptNumber("gZa6zSEooB/lAAwRBzMAAA==EBESExQVFhcYGRobHB0eHw==", key: key) == 24.962535)
    }

    @Test func invalidValuesGiveTheExpectedError() throws {
        let vectors = try Vectors.load("legacy", as: LegacyVectors.self)
        for vector in vectors.invalid {
            let key = try LegacyKey(bytes: [UInt8](hex: vector.key))
            do {
                let number = try LegacyCipher.decryptNumber(vector.stored, key: key)
                Issue.record("\(vector.comment): decrypted to \(number)")
            } catch {
                #expect(error.vectorName == vector.error, "\(vector.comment): \(error)")
            }
        }
    }

    @Test func invalidKeysAreRefused() throws {
        let vectors = try Vectors.load("legacy", as: LegacyVectors.self)
        for vector in vectors.invalid_keys {
            #expect(throws: LocationError.self, "\(vector.comment)") { try LegacyKey(base64: vector.key) }
        }
    }

    @Test func randomIVRoundTripsNumbersAndDiffersEachTime() throws {
        let key = try LegacyKey.random()
        #expect(key.byteCount == 16 && key.base64.count == 24)
        let first = try LegacyCipher.encrypt(number: -33.86882, key: key)
        let second = try LegacyCipher.encrypt(number: -33.86882, key: key)
        #expect(first != second)
        #expect(try LegacyCipher.decryptNumber(first, key: key) == -33.86882)
        #expect(throws: LocationError.self) { try LegacyCipher.encrypt(number: .nan, key: key) }
    }

    @Test func errorsNeverShowTheKeyOrThePlaintext() throws {
        let key = try LegacyKey(base64: "AAECAwQFBgcICQoLDA0ODw==")
        let stored = try LegacyCipher.encrypt(text: "north", key: key)
        do {
            _ = try LegacyCipher.decryptNumber(stored, key: key)
            Issue.record("a word decrypted as a number")
        } catch {
            #expect(!"\(error)".contains("north") && !"\(error)".contains(key.base64))
        }
    }

    @Test func garbageNeverCrashes() throws {
        let key = try LegacyKey.random(byteCount: 32)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=%: \u{0}é")
        for _ in 0..<2000 {
            let length = Int.random(in: 0...120, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            #expect(throws: LocationError.self) { try LegacyCipher.decryptNumber(text, key: key) }
        }
    }
}
