import Crypto
import Foundation
@testable import ParleyCrypto
@testable import ParleyFiles
import Testing

@Suite("Parley file v1 known answers")
struct FileV1VectorTests {
    static let vectors = V1Vectors.shared

    @Test("every valid file from the independent generator opens to its plaintext", arguments: vectors.valid.map(\.name))
    func openValid(name: String) throws {
        let vector = Self.vectors.valid(named: name)
        let bytes = [UInt8](hex: vector.file)
        #expect(SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() == vector.fileSHA256)
        #expect(try openEncrypted(bytes, with: [try vector.identity.identity]) == vector.plaintext)
        let header = try FileOpener.readHeader(from: MemoryInput(bytes))
        #expect(header.macInput.count == vector.headerLength)
        #expect(header.stanzas.count == vector.stanzas.count)
    }

    @Test("sealing with the vector's secrets reproduces every file without an X-Wing stanza byte for byte")
    func sealReproduces() throws {
        for vector in Self.vectors.valid where !vector.stanzas.contains(where: { $0.kind == "xwing" }) {
            let fileKey = [UInt8](hex: vector.fileKey)
            let stanzas = try vector.stanzas.map { input -> Stanza in
                switch input.kind {
                case "p256":
                    return try Stanza.wrapP256(
                        fileKey: fileKey,
                        to: try P256.KeyAgreement.PublicKey(x963Representation: [UInt8](hex: input.recipient!)),
                        ephemeral: try P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: input.ephemeral!)))
                case "x25519":
                    return try Stanza.wrapX25519(
                        fileKey: fileKey,
                        to: try Curve25519.KeyAgreement.PublicKey(rawRepresentation: [UInt8](hex: input.recipient!)),
                        ephemeral: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: input.ephemeral!)))
                default:
                    return try Stanza.wrapPassphrase(
                        fileKey: fileKey, passphrase: input.passphrase!, salt: [UInt8](hex: input.salt!), logN: input.logN!,
                        lanes: input.lanes ?? 1)
                }
            }
            let header = try FileHeader.make(stanzas: stanzas, fileKey: fileKey, payloadNonce: [UInt8](hex: vector.payloadNonce))
            let output = MemoryOutput()
            _ = try FileSealer.seal(from: MemoryInput(vector.plaintext), to: output, header: header, fileKey: fileKey)
            #expect(output.bytes.hex == vector.file, "\(vector.name)")
        }
    }

    @Test("every invalid file fails with its documented error", arguments: vectors.invalid.map(\.name))
    func invalid(name: String) throws {
        let vector = Self.vectors.invalid.first { $0.name == name }!
        let bytes = Self.vectors.bytes(of: vector)
        let error = #expect(throws: FileError.self) {
            try openEncrypted(bytes, with: [try vector.identity.identity])
        }
        #expect(matches(error, vector.error), "expected \(vector.error), got \(String(describing: error))")
    }

    @Test("inspect arithmetic gives the plaintext size of every valid file without a key")
    func layout() throws {
        for vector in Self.vectors.valid {
            let payload = UInt64(vector.file.count / 2 - vector.headerLength - 48)
            #expect(try PayloadLayout.measure(payloadBytes: payload).plaintextBytes == UInt64(vector.plaintextLength))
        }
        #expect(throws: FileError.self) { try PayloadLayout.measure(payloadBytes: 15) }
        #expect(throws: FileError.self) { try PayloadLayout.measure(payloadBytes: 65_552 + 5) }
        #expect(throws: FileError.self) { try PayloadLayout.measure(payloadBytes: 65_552 + 16) }
    }
}
