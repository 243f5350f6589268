import Crypto
import Foundation
@testable import ParleyCrypto
@testable import ParleyFiles
import Testing

/// The v1 vector file and the helpers that turn its JSON into identities and files.
struct V1Vectors: Decodable {
    struct Identity: Decodable {
        let kind: String, key: String?, passphrase: String?
    }
    struct StanzaInput: Decodable {
        let kind: String, recipient: String?, ephemeral: String?, passphrase: String?, salt: String?, logN: UInt8?
        let lanes: UInt8?
    }
    struct Valid: Decodable {
        let name: String, identity: Identity, stanzas: [StanzaInput], fileKey: String, payloadNonce: String
        let plaintextSeed: String?, plaintextLength: Int, headerLength: Int, file: String, fileSHA256: String
    }
    struct Edits: Decodable {
        let flips: [Int], truncate: Int?, append: String?, set: [[Int]]?, swap: [Int]?
    }
    struct Invalid: Decodable {
        let name: String, identity: Identity, file: String?, fromValid: String?, edits: Edits?, error: String
    }
    let valid: [Valid]
    let invalid: [Invalid]

    static let shared: V1Vectors = try! Vectors.load("file-v1")

    func valid(named name: String) -> Valid { valid.first { $0.name == name }! }

    /// The bytes of an invalid case: stored, or a valid file with the listed edits.
    func bytes(of vector: Invalid) -> [UInt8] {
        if let file = vector.file { return [UInt8](hex: file) }
        var bytes = [UInt8](hex: valid(named: vector.fromValid!).file)
        guard let edits = vector.edits else { return bytes }
        for index in edits.flips { bytes[index] ^= 0x01 }
        for pair in edits.set ?? [] { bytes[pair[0]] = UInt8(pair[1]) }
        if let swap = edits.swap {
            let a = Array(bytes[swap[0]..<(swap[0] + swap[2])])
            let b = Array(bytes[swap[1]..<(swap[1] + swap[2])])
            bytes.replaceSubrange(swap[0]..<(swap[0] + swap[2]), with: b)
            bytes.replaceSubrange(swap[1]..<(swap[1] + swap[2]), with: a)
        }
        if let length = edits.truncate { bytes = Array(bytes.prefix(length)) }
        if let append = edits.append { bytes += [UInt8](hex: append) }
        return bytes
    }
}

extension V1Vectors.Identity {
    var identity: FileIdentity {
        get throws {
            switch kind {
            case "p256": return .p256(try P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: key!)))
            case "x25519": return .x25519(try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: key!)))
            case "xwing": return .xwing(try XWingMLKEM768X25519.PrivateKey(seedRepresentation: [UInt8](hex: key!), publicKey: nil))
            default: return .passphrase(passphrase!)
            }
        }
    }
}

extension V1Vectors.Valid {
    var plaintext: [UInt8] {
        guard let seed = plaintextSeed else { return [] }
        return DeterministicRandomSource(seed: Array(seed.utf8)).bytes(plaintextLength)
    }
}

/// Opens encrypted bytes the way `parley file open` does: detect the format, then stream.
func openEncrypted(_ bytes: [UInt8], with identities: [FileIdentity]) throws -> [UInt8] {
    guard FileFormat.detect(Array(bytes.prefix(FileFormat.prefixLength))) == .parleyV1 else {
        throw FileError.notEncryptedFile
    }
    let output = MemoryOutput()
    try FileOpener.open(from: MemoryInput(bytes), to: output, identities: identities)
    return output.bytes
}

/// Whether `error` is the category a vector names.
func matches(_ error: FileError?, _ category: String) -> Bool {
    switch (error, category) {
    case (.notEncryptedFile?, "notParley"), (.cannotDecrypt?, "decrypt"),
        (.unsupportedVersion?, "unsupported"), (.malformed?, "malformed"), (.noMatchingRecipient?, "noMatchingKind"):
        return true
    default:
        return false
    }
}
