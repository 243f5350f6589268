import Crypto
import Foundation
@testable import ParleyClient
import ParleyClientFormats
import Testing

/// docs/FORMATS.md §16 against vectors from an independent Python implementation
/// (scripts/vectors/parley_attachment_vectors.py).
@Suite("Attachment format v1")
struct AttachmentFormatTests {
    struct File: Decodable {
        struct Valid: Decodable {
            let name: String, key: String, salt: String, plaintext_size: Int64, ciphertext_size: Int64
            let ciphertext_sha256: String, ciphertext: String?
        }
        struct Edit: Decodable {
            let op: String
            let offset: Int?, value: UInt8?, length: Int?, hex: String?, from: Int?, to: Int?, a: Int?, b: Int?
        }
        struct Invalid: Decodable { let name: String, error: String, base: String, key: String, plaintext_size: Int64, edits: [Edit] }
        let valid: [Valid]
        let invalid: [Invalid]
    }

    static func plaintext(_ count: Int64) -> [UInt8] { (0..<Int(count)).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) } }

    static func sealed(_ vector: File.Valid) -> [UInt8] {
        AttachmentFormat.seal(plaintext(vector.plaintext_size), key: [UInt8](hex: vector.key), salt: [UInt8](hex: vector.salt))
    }

    @Test func sealingMatchesTheIndependentImplementationByteForByte() throws {
        let file = try Vectors.load("attachment-v1", as: File.self)
        #expect(file.valid.count >= 7)
        for vector in file.valid {
            let ciphertext = Self.sealed(vector)
            #expect(Int64(ciphertext.count) == vector.ciphertext_size, "\(vector.name)")
            #expect(AttachmentFormat.ciphertextSize(plaintextSize: vector.plaintext_size) == vector.ciphertext_size, "\(vector.name)")
            #expect(Array(SHA256.hash(data: ciphertext)).hex == vector.ciphertext_sha256, "\(vector.name)")
            if let hex = vector.ciphertext { #expect(ciphertext.hex == hex, "\(vector.name)") }
            let opened = try AttachmentFormat.open(ciphertext, key: [UInt8](hex: vector.key), plaintextSize: vector.plaintext_size)
            #expect(opened == Self.plaintext(vector.plaintext_size), "\(vector.name)")
        }
    }

    @Test func openingWorksForAnySlicingOfTheInput() throws {
        let file = try Vectors.load("attachment-v1", as: File.self)
        let vector = try #require(file.valid.last)
        let ciphertext = Self.sealed(vector)
        for step in [1_000, 24_576, 65_552, 100_000] {
            var opener = try AttachmentOpener(key: [UInt8](hex: vector.key), plaintextSize: vector.plaintext_size,
                                              ciphertextSize: Int64(ciphertext.count))
            var out: [UInt8] = []
            for start in stride(from: 0, to: ciphertext.count, by: step) {
                out += try opener.feed(ciphertext[start..<min(ciphertext.count, start + step)])
            }
            out += try opener.finish()
            #expect(out == Self.plaintext(vector.plaintext_size), "step \(step)")
        }
    }

    @Test func everyInvalidVectorIsRefusedWithItsError() throws {
        let file = try Vectors.load("attachment-v1", as: File.self)
        #expect(file.invalid.count >= 12)
        for vector in file.invalid {
            let base = try #require(file.valid.first { $0.name == vector.base })
            var bytes = Self.sealed(base)
            for edit in vector.edits {
                switch edit.op {
                case "xor": bytes[edit.offset!] ^= edit.value!
                case "truncate": bytes = Array(bytes.prefix(edit.length!))
                case "append": bytes += [UInt8](hex: edit.hex!)
                case "cut": bytes.removeSubrange(edit.from!..<edit.to!)
                case "swap":
                    let first = Array(bytes[edit.a!..<(edit.a! + edit.length!)]), second = Array(bytes[edit.b!..<(edit.b! + edit.length!)])
                    bytes.replaceSubrange(edit.a!..<(edit.a! + edit.length!), with: second)
                    bytes.replaceSubrange(edit.b!..<(edit.b! + edit.length!), with: first)
                default: Issue.record("unknown edit \(edit.op)")
                }
            }
            do {
                _ = try AttachmentFormat.open(bytes, key: [UInt8](hex: vector.key), plaintextSize: vector.plaintext_size)
                Issue.record("\(vector.name): accepted")
            } catch {
                switch (vector.error, error) {
                case ("cannotDecrypt", .cannotDecrypt), ("malformed", .malformed), ("unsupportedVersion", .unsupportedVersion): break
                default: Issue.record("\(vector.name): expected \(vector.error), got \(error)")
                }
            }
        }
    }

    @Test func garbageAndWrongSizesNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        let key = [UInt8](repeating: 7, count: 32)
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for claimed in [Int64(0), Int64(max(0, length - 37)), Int64(length)] {
                _ = try? AttachmentFormat.open(bytes, key: key, plaintextSize: claimed)
            }
        }
        #expect(throws: AttachmentError.self) { try AttachmentOpener(key: [1, 2, 3], plaintextSize: 0, ciphertextSize: 37) }
        #expect(throws: AttachmentError.self) { try AttachmentOpener(key: key, plaintextSize: -1, ciphertextSize: 37) }
        #expect(throws: AttachmentError.self) { try AttachmentOpener(key: key, plaintextSize: 1 << 40, ciphertextSize: 37) }
    }
}
