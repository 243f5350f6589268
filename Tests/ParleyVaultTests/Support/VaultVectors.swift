import Foundation
@testable import ParleyVault

/// `Vectors/vault-sealed.json`: sealed values, invalid ones and subkeys.
struct SealedVectors: Decodable {
    struct Valid: Decodable {
        let name: String, key: String, binding: String, nonce: String, plaintext: String, sealed: String
    }
    struct Invalid: Decodable {
        let name: String, key: String, binding: String, sealed: String, error: String, version: UInt8?
    }
    struct Subkey: Decodable {
        let key: String, purpose: String, subkey: String
    }
    let valid: [Valid]
    let invalid: [Invalid]
    let subkeys: [Subkey]

    static let shared: SealedVectors = try! Vectors.load("vault-sealed")
}

/// `Vectors/mainkey-file.json`: files in every mode and damaged or wrongly unlocked ones.
struct MainKeyFileVectors: Decodable {
    struct Valid: Decodable {
        let name: String, mode: String, key: String, file: String, failedAttempts: Int
        let pin: String?, seed: String?, salt: String?, nonce: String?
        let protectorName: String?, protectorKEK: String?
    }
    struct Invalid: Decodable {
        let name: String, file: String, pin: String?, error: String, version: UInt8?, attemptsLeft: Int?
    }
    let valid: [Valid]
    let invalid: [Invalid]

    static let shared: MainKeyFileVectors = try! Vectors.load("mainkey-file")

    func valid(named name: String) -> Valid { valid.first { $0.name == name }! }
}

extension MainKeyFileVectors.Invalid {
    /// The error this vector names.
    var expected: VaultError {
        switch error {
        case "corrupt": .corrupt
        case "unsupportedVersion": .unsupportedVersion(version!)
        case "wrongPIN": .wrongPIN(attemptsLeft: attemptsLeft!)
        case "pinRequired": .pinRequired
        case "weakPIN": .weakPIN
        default: fatalError("unknown error \(error) in mainkey-file.json")
        }
    }
}

extension SealedVectors.Invalid {
    /// The error this vector names.
    var expected: VaultError {
        switch error {
        case "corrupt": .corrupt
        case "unsupportedVersion": .unsupportedVersion(version!)
        case "cannotDecrypt": .cannotDecrypt
        default: fatalError("unknown error \(error) in vault-sealed.json")
        }
    }
}
