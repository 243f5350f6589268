import Crypto
import Foundation
@testable import ParleyCrypto
@testable import ParleyFiles
import Testing

@Suite("FileLock packages")
struct FileLockPackageTests {
    struct File: Decodable {
        struct Valid: Decodable {
            let recipientPrivate: String, recipientPublic: String, ephemeralPrivate: String, wrapVariant: String
            let fileKey: String, nonce: String, plaintext: String, package: String
        }
        struct Invalid: Decodable {
            let name: String, recipientPrivate: String, package: String, error: String
        }
        let valid: [Valid]
        let invalid: [Invalid]
    }

    static let file: File = try! Vectors.load("filelock")

    @Test("seal reproduces the independent cofactor-wrapped packages byte for byte")
    func sealMatchesVectors() throws {
        for vector in Self.file.valid where vector.wrapVariant == "cofactor" {
            let made = try FileLockPackage.seal(
                [UInt8](hex: vector.plaintext),
                to: try P256.KeyAgreement.PublicKey(x963Representation: [UInt8](hex: vector.recipientPublic)),
                fileKey: [UInt8](hex: vector.fileKey), nonce: [UInt8](hex: vector.nonce),
                ephemeral: try P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: vector.ephemeralPrivate)))
            #expect(made.hex == vector.package)
        }
    }

    @Test("open returns the plaintext of every valid package, either key-wrap variant")
    func openVectors() throws {
        for vector in Self.file.valid {
            let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: vector.recipientPrivate))
            #expect(try FileLockPackage.open([UInt8](hex: vector.package), using: key).hex == vector.plaintext)
            #expect(FileFormat.detect(Array([UInt8](hex: vector.package).prefix(8))) == .fileLock)
        }
    }

    @Test("every invalid package fails with the documented error")
    func invalidVectors() throws {
        for vector in Self.file.invalid {
            let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: vector.recipientPrivate))
            let error = #expect(throws: FileError.self, "\(vector.name)") {
                try FileLockPackage.open([UInt8](hex: vector.package), using: key)
            }
            if vector.error == "decrypt" {
                #expect(error == .cannotDecrypt, "\(vector.name)")
            } else {
                guard case .malformed = error else {
                    Issue.record("\(vector.name): expected malformed, got \(String(describing: error))")
                    continue
                }
            }
        }
    }

    @Test("a package cut at every length is refused, never a crash")
    func truncation() throws {
        let vector = Self.file.valid[1]
        let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: vector.recipientPrivate))
        let bytes = [UInt8](hex: vector.package)
        for length in 0..<bytes.count {
            #expect(throws: FileError.self) { try FileLockPackage.open(bytes.prefix(length), using: key) }
        }
        // Reading at an odd offset: FileLock's own reader traps here, ours must not.
        let unaligned = [UInt8]([0xAA]) + bytes
        #expect(try FileLockPackage.open(unaligned.dropFirst(), using: key).hex == vector.plaintext)
    }
}
