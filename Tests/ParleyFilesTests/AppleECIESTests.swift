import Crypto
import Foundation
@testable import ParleyCrypto
import Testing

@Suite("Apple ECIES (P-256)")
struct AppleECIESTests {
    struct File: Decodable {
        struct Valid: Decodable {
            let variant: String, recipientPrivate: String, recipientPublic: String
            let recipientAppleRawBase64: String, recipientPKCS8PEM: String, recipientSEC1PEM: String
            let recipientSPKIPEM: String, recipientFileLockPEM: String
            let ephemeralPrivate: String, plaintext: String, blob: String
        }
        struct Invalid: Decodable {
            let name: String, variant: String, recipientPrivate: String, blob: String, error: String
        }
        let valid: [Valid]
        let invalid: [Invalid]
    }

    static let file: File = try! Vectors.load("apple-ecies")

    static func variant(_ name: String) -> AppleECIES.Variant { AppleECIES.Variant(rawValue: name)! }

    @Test("seal with the vector's ephemeral key reproduces the independent blobs byte for byte")
    func sealMatchesVectors() throws {
        for vector in Self.file.valid {
            let recipient = try P256.KeyAgreement.PublicKey(x963Representation: [UInt8](hex: vector.recipientPublic))
            let ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: vector.ephemeralPrivate))
            let blob = try AppleECIES.seal(
                [UInt8](hex: vector.plaintext), to: recipient, variant: Self.variant(vector.variant), ephemeral: ephemeral)
            #expect(blob.hex == vector.blob)
            #expect(blob.count == vector.plaintext.count / 2 + AppleECIES.overhead)
        }
    }

    @Test("open returns the plaintext of every valid blob")
    func openVectors() throws {
        for vector in Self.file.valid {
            let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: vector.recipientPrivate))
            let plaintext = try AppleECIES.open([UInt8](hex: vector.blob), using: key, variant: Self.variant(vector.variant))
            #expect(plaintext.hex == vector.plaintext)
        }
    }

    @Test("every private key encoding imports to the same key")
    func privateKeyImport() throws {
        for vector in Self.file.valid {
            let expected = vector.recipientPrivate
            let forms: [[UInt8]] = [
                Array(vector.recipientPKCS8PEM.utf8), Array(vector.recipientSEC1PEM.utf8),
                Array(vector.recipientAppleRawBase64.utf8),
                Array(Data(base64Encoded: vector.recipientAppleRawBase64)!),
                Array(try P256.KeyAgreement.PrivateKey(pemRepresentation: vector.recipientPKCS8PEM).derRepresentation),
            ]
            for form in forms {
                #expect(try P256KeyImport.privateKey(from: form).rawRepresentation.hex == expected)
            }
        }
    }

    @Test("SPKI and FileLock public keys import to the same point")
    func publicKeyImport() throws {
        for vector in Self.file.valid {
            for form in [vector.recipientSPKIPEM, vector.recipientFileLockPEM] {
                #expect(try P256KeyImport.publicKey(from: Array(form.utf8)).x963Representation.hex == vector.recipientPublic)
            }
            let key = try P256KeyImport.publicKey(from: Array(vector.recipientFileLockPEM.utf8))
            #expect(try P256KeyImport.publicKey(from: Array(P256KeyImport.fileLockPEM(key).utf8)).rawRepresentation == key.rawRepresentation)
        }
    }

    @Test("Apple's raw form with a public point from another key is refused")
    func mismatchedRawKey() throws {
        let a = Data(base64Encoded: Self.file.valid[0].recipientAppleRawBase64)!
        let b = Data(base64Encoded: Self.file.valid[1].recipientAppleRawBase64)!
        let spliced = Array(a.prefix(65)) + Array(b.suffix(32))
        #expect(throws: ECIESError.self) { try P256KeyImport.privateKey(from: spliced) }
        #expect(throws: ECIESError.self) { try P256KeyImport.privateKey(from: Array("not a key".utf8)) }
        #expect(throws: ECIESError.self) { try P256KeyImport.publicKey(from: Array("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n".utf8)) }
    }

    @Test("every invalid blob fails with the documented error")
    func invalidVectors() throws {
        for vector in Self.file.invalid {
            let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: vector.recipientPrivate))
            let expected: ECIESError = vector.error == "decrypt" ? .cannotDecrypt : .malformedBlob
            #expect(throws: expected, "\(vector.name)") {
                try AppleECIES.open([UInt8](hex: vector.blob), using: key, variant: Self.variant(vector.variant))
            }
        }
    }

    @Test("a fresh random seal opens, and two seals of one plaintext differ")
    func randomRoundTrip() throws {
        let key = P256.KeyAgreement.PrivateKey()
        for variant in AppleECIES.Variant.allCases {
            let a = try AppleECIES.seal(Array("x".utf8), to: key.publicKey, variant: variant)
            let b = try AppleECIES.seal(Array("x".utf8), to: key.publicKey, variant: variant)
            #expect(a != b)
            #expect(try AppleECIES.open(a, using: key, variant: variant) == Array("x".utf8))
        }
    }

    struct External: Decodable {
        struct Vector: Decodable {
            let name: String, variant: String, sec1DERBase64: String, blobBase64: String, plaintext: String
        }
        let source: String
        let vectors: [Vector]
    }

    @Test("blobs made by SecKeyCreateEncryptedData on an Apple device open (published vectors)")
    func appleMadeVectors() throws {
        let external: External = try Vectors.load("apple-ecies-external")
        for vector in external.vectors {
            let key = try P256KeyImport.privateKey(from: Array(vector.sec1DERBase64.utf8))
            let blob = Array(Data(base64Encoded: vector.blobBase64)!)
            #expect(try AppleECIES.open(blob, using: key, variant: Self.variant(vector.variant)) == Array(vector.plaintext.utf8))
            #expect(throws: ECIESError.cannotDecrypt) { try AppleECIES.open(blob, using: key, variant: .cofactor) }
        }
    }
}
