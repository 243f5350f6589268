import Crypto
import Foundation
import ParleyCrypto
@testable import ParleyVault
import ParleyTestSupport
import Testing

@Suite("MainKey file vectors", .offThePool)
struct MainKeyFileVectorTests {
    let vectors = MainKeyFileVectors.shared

    @Test("Python-made files in every mode unlock to their key", arguments: MainKeyFileVectors.shared.valid.map(\.name))
    func unlockValid(name: String) throws {
        let vector = vectors.valid(named: name)
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write([UInt8](hex: vector.file))
        let key: MainKey
        switch vector.mode {
        case "hardware":
            #expect(try MainKeyFile.protection(in: directory.account) == .hardware(vector.protectorName!))
            let protector = SoftwareProtector(name: vector.protectorName!, kek: [UInt8](hex: vector.protectorKEK!))
            key = try MainKeyFile.unlock(in: directory.account, protector: protector)
        case "pin":
            #expect(try MainKeyFile.protection(in: directory.account) == .pin)
            key = try MainKeyFile.unlock(in: directory.account, pin: vector.pin)
        default:
            #expect(try MainKeyFile.protection(in: directory.account) == VaultProtection.none)
            key = try MainKeyFile.unlock(in: directory.account, pin: nil)
        }
        #expect(key.bytes.hex == vector.key)
    }

    @Test("creating a file with the vectors' key and randomness gives their bytes exactly")
    func createMatchesVectors() throws {
        for vector in vectors.valid where vector.mode != "hardware" && vector.failedAttempts == 0 {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let key = try MainKey(bytes: [UInt8](hex: vector.key))
            let random = DeterministicRandomSource(seed: Array((vector.seed ?? "unused").utf8))
            try MainKeyFile.create(in: directory.account, key: key, pin: vector.pin, random: random)
            #expect(directory.fileBytes().hex == vector.file, "\(vector.name)")
        }
    }

    @Test("encode(decode(file)) gives the same bytes for every valid vector")
    func reencode() throws {
        for vector in vectors.valid {
            let bytes = [UInt8](hex: vector.file)
            let contents = try MainKeyFileContents.decode(bytes)
            #expect(contents.encoded() == bytes, "\(vector.name)")
            #expect(Int(contents.failedAttempts) == vector.failedAttempts)
        }
    }

    @Test("invalid files fail with the error they name", arguments: MainKeyFileVectors.shared.invalid.map(\.name))
    func invalid(name: String) throws {
        let vector = vectors.invalid.first { $0.name == name }!
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write([UInt8](hex: vector.file))
        let error = vaultError { try MainKeyFile.unlock(in: directory.account, pin: vector.pin) }
        #expect(error == vector.expected)
        // A damaged file is never changed by a failed unlock; a wrong PIN is counted in it.
        if case .wrongPIN(let left) = vector.expected {
            let contents = try MainKeyFileContents.decode(directory.fileBytes())
            #expect(Int(contents.failedAttempts) == MainKeyFile.maximumAttempts - left)
        } else {
            #expect(directory.fileBytes().hex == vector.file)
        }
    }

    @Test("the NFC and NFD spellings of a PIN are the same PIN")
    func nfc() throws {
        let vector = vectors.valid(named: "pin-nfc")
        for spelling in ["caf\u{E9} 42", "cafe\u{301} 42"] {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            directory.write([UInt8](hex: vector.file))
            #expect(try MainKeyFile.unlock(in: directory.account, pin: spelling).bytes.hex == vector.key)
        }
    }

    @Test("every prefix and every single-bit flip of each valid file decodes to an error, never a crash")
    func exhaustiveDamage() {
        for vector in vectors.valid {
            let bytes = [UInt8](hex: vector.file)
            for length in 0..<bytes.count {
                let error = vaultError { try MainKeyFileContents.decode(Array(bytes.prefix(length))) }
                #expect(error == .corrupt, "\(vector.name) cut at \(length)")
            }
            for index in bytes.indices {
                for bit in 0..<8 {
                    var altered = bytes
                    altered[index] ^= 1 << bit
                    let error = vaultError { try MainKeyFileContents.decode(altered) }
                    #expect(error == (index == 8 ? .unsupportedVersion(altered[8]) : .corrupt), "\(vector.name) byte \(index)")
                }
            }
        }
    }

    @Test("random garbage files are corrupt")
    func garbage() {
        var generator = SystemRandomNumberGenerator()
        for length in [1, 8, 9, 61, 137, 8192, 8193, 100_000] {
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(vaultError { try MainKeyFileContents.decode(bytes) } == .corrupt)
            // Even behind the right magic and version.
            if bytes.count >= 9 { bytes.replaceSubrange(0..<9, with: MainKeyFileContents.magic + [1]) }
            #expect(vaultError { try MainKeyFileContents.decode(bytes) } == .corrupt)
        }
    }

    @Test("an oversize file on disk is refused without reading it all")
    func oversizeOnDisk() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(MainKeyFileContents.magic + [1] + [UInt8](repeating: 0, count: 5_000_000))
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, pin: "1234") } == .corrupt)
        #expect(vaultError { try MainKeyFile.protection(in: directory.account) } == .corrupt)
    }
}
