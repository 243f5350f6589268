import Crypto
import Foundation
import ParleyHardwareKeys
import Testing

/// The PHK1 reader (docs/FORMATS.md §17) against a blob tpm2-tools made, and against damaged ones.
@Suite("Hardware key blobs")
struct HardwareKeyBlobTests {
    struct Vectors: Decodable {
        struct Valid: Decodable { let name: String, blob: String, kind: UInt8, needsPIN: Bool, x: String, y: String }
        struct Invalid: Decodable { let name: String, blob: String, error: String }
        let valid: [Valid]
        let invalid: [Invalid]
    }

    static let vectors: Vectors = {
        let url = Bundle.module.url(forResource: "phk1", withExtension: "json", subdirectory: "Vectors")!
        return try! JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
    }()

    @Test("a blob made by tpm2-tools reads back with the point tpm2_create printed, byte for byte")
    func valid() throws {
        for vector in Self.vectors.valid {
            let bytes = HardwareKeyTests.bytes(vector.blob)
            let blob = try HardwareKeyBlob(bytes: bytes)
            #expect(blob.kind.rawValue == vector.kind && blob.needsPIN == vector.needsPIN, "\(vector.name)")
            #expect(blob.publicPoint == [0x04] + HardwareKeyTests.bytes(vector.x) + HardwareKeyTests.bytes(vector.y))
            #expect(blob.bytes == bytes, "re-encodes to the same bytes")
        }
    }

    @Test("damaged, truncated, oversized and mislabelled blobs are refused in words")
    func invalid() {
        #expect(Self.vectors.invalid.count >= 10)
        for vector in Self.vectors.invalid {
            #expect {
                try HardwareKeyBlob(bytes: HardwareKeyTests.bytes(vector.blob))
            } throws: { error in
                guard case .malformed(let why) = error as? HardwareKeyError else { return false }
                return why.contains(vector.error)
            }
        }
    }

    @Test("random bytes after a valid header never read as a blob")
    func garbage() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 9, 50, 300, 3_000] {
            let tail = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(throws: HardwareKeyError.self) { try HardwareKeyBlob(bytes: Array("PHK1".utf8) + [1, 0, 1] + tail) }
        }
    }
}
