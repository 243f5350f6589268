import Foundation
@testable import ParleyVault
import Testing

@Suite("MainKey file: hardware mode")
struct MainKeyFileHardwareTests {
    @Test("create and unlock with a protector; the file records its name")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        let protector = SoftwareProtector(name: "tpm-test")
        try MainKeyFile.create(in: directory.account, key: key, protector: protector)
        #expect(try MainKeyFile.protection(in: directory.account) == .hardware("tpm-test"))
        #expect(try MainKeyFile.unlock(in: directory.account, protector: protector) == key)
        #expect(!directory.fileBytes().hex.contains(key.bytes.hex))
    }

    @Test("the wrong protector, a failing one, or the PIN path cannot unlock it")
    func refusals() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        let protector = SoftwareProtector(name: "tpm-test")
        try MainKeyFile.create(in: directory.account, key: key, protector: protector)

        let otherName = vaultError { try MainKeyFile.unlock(in: directory.account, protector: SoftwareProtector(name: "enclave")) }
        guard case .io(let message) = otherName else {
            Issue.record("expected an io error naming the protector")
            return
        }
        #expect(message.contains("tpm-test"))
        // Same name, different secret: the blob does not open.
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, protector: SoftwareProtector(name: "tpm-test")) } == .cannotDecrypt)
        var failing = protector
        failing.failing = true
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, protector: failing) } == .cannotDecrypt)
        #expect(vaultError { try MainKeyFile.create(in: directory.url.appendingPathComponent("b"), key: key, protector: failing) } != nil)
        #expect(!MainKeyFile.exists(in: directory.url.appendingPathComponent("b")))
        guard case .io = vaultError({ try MainKeyFile.unlock(in: directory.account, pin: "1234") }) else {
            Issue.record("the PIN path must refuse a hardware file")
            return
        }
    }

    @Test("a protector that returns a different key is caught by the key check")
    func wrongKeyFromProtector() throws {
        struct Liar: HardwareKeyProtector {
            let name = "liar"
            func wrap(_ key: MainKey) throws -> [UInt8] { [1, 2, 3] }
            func unwrap(_ blob: [UInt8]) throws -> MainKey { MainKey.generate() }
        }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try MainKeyFile.create(in: directory.account, key: MainKey.generate(), protector: Liar())
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, protector: Liar()) } == .cannotDecrypt)
    }

    @Test("protector names and blobs outside the file's limits are refused")
    func limits() {
        struct Sized: HardwareKeyProtector {
            let name: String, blobSize: Int
            func wrap(_ key: MainKey) throws -> [UInt8] { [UInt8](repeating: 7, count: blobSize) }
            func unwrap(_ blob: [UInt8]) throws -> MainKey { throw VaultError.cannotDecrypt }
        }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        for protector in [Sized(name: "", blobSize: 10), Sized(name: String(repeating: "n", count: 65), blobSize: 10),
                          Sized(name: "ok", blobSize: 0), Sized(name: "ok", blobSize: 4097)] {
            #expect(vaultError { try MainKeyFile.create(in: directory.account, key: key, protector: protector) } != nil)
            #expect(!MainKeyFile.exists(in: directory.account))
        }
        #expect(vaultError { try MainKeyFile.create(in: directory.account, key: key, protector: Sized(name: "ok", blobSize: 4096)) } == nil)
        // The largest valid file decodes.
        #expect(vaultError { try MainKeyFile.protection(in: directory.account) } == nil)
    }

    @Test("changeProtection moves between PIN and hardware with the same key")
    func changeProtection() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        let protector = SoftwareProtector(name: "enclave")
        try MainKeyFile.create(in: directory.account, key: key, pin: "1234")
        try MainKeyFile.changeProtection(in: directory.account, key: key, protector: protector)
        #expect(try MainKeyFile.protection(in: directory.account) == .hardware("enclave"))
        #expect(try MainKeyFile.unlock(in: directory.account, protector: protector) == key)
        #expect(vaultError { try MainKeyFile.changeProtection(in: directory.account, key: MainKey.generate(), protector: protector) } == .cannotDecrypt)
        try MainKeyFile.changePIN(in: directory.account, key: key, newPIN: "5678")
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, protector: protector) } == .pinRequired)
        #expect(try MainKeyFile.unlock(in: directory.account, pin: "5678") == key)
    }
}
