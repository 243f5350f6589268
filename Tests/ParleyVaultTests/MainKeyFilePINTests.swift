import Foundation
import Synchronization
@testable import ParleyVault
import ParleyTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("MainKey file: PIN mode, attempts and wipe", .offThePool)
struct MainKeyFilePINTests {
    /// Reads the attempt counter stored in the file.
    func failedAttempts(_ directory: TemporaryDirectory) throws -> Int {
        Int(try MainKeyFileContents.decode(directory.fileBytes()).failedAttempts)
    }

    @Test("create and unlock round trip in PIN mode; the file is 0600 and holds no key bytes")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        try MainKeyFile.create(in: directory.account, key: key, pin: "2580")
        #expect(MainKeyFile.exists(in: directory.account))
        #expect(try MainKeyFile.protection(in: directory.account) == .pin)
        #expect(try MainKeyFile.unlock(in: directory.account, pin: "2580") == key)
        let bytes = directory.fileBytes()
        #expect(!bytes.hex.contains(key.bytes.hex))
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.mainKeyFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // No temporary files are left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.account.path) == [MainKeyFile.fileName])
    }

    @Test("no PIN or a short PIN is refused without using an attempt")
    func pinRequiredAndWeak() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        #expect(vaultError { try MainKeyFile.create(in: directory.account, key: key, pin: "123") } == .weakPIN)
        #expect(vaultError { try MainKeyFile.create(in: directory.account, key: key, pin: "") } == .weakPIN)
        #expect(vaultError { try MainKeyFile.create(in: directory.account, key: key, pin: String(repeating: "9", count: 1025)) } == .weakPIN)
        #expect(!MainKeyFile.exists(in: directory.account))
        try MainKeyFile.create(in: directory.account, key: key, pin: "👍👍👍👍")
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, pin: nil) } == .pinRequired)
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, pin: "👍👍👍") } == .weakPIN)
        #expect(try failedAttempts(directory) == 0)
        #expect(try MainKeyFile.unlock(in: directory.account, pin: "👍👍👍👍") == key)
    }

    @Test("wrong PINs count down, the counter survives re-opening, success resets it")
    func countdownAndReset() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        try MainKeyFile.create(in: directory.account, key: key, pin: "1111")
        for attempt in 1...4 {
            #expect(vaultError { try MainKeyFile.unlock(in: directory.account, pin: "0000") } == .wrongPIN(attemptsLeft: 10 - attempt))
            // Each call re-reads the file: the count is on disk, not in memory.
            #expect(try failedAttempts(directory) == attempt)
        }
        #expect(try MainKeyFile.unlock(in: directory.account, pin: "1111") == key)
        #expect(try failedAttempts(directory) == 0)
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, pin: "0000") } == .wrongPIN(attemptsLeft: 9))
    }

    @Test("the try is counted on disk before the PIN is tried, even when the PIN is right")
    func countedBeforeTrying() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        try MainKeyFile.create(in: directory.account, key: key, pin: "1111")
        let seen = Mutex<[Int]>([])
        let path = directory.mainKeyFile
        let unlocked: MainKey? = MainKeyFileTestHooks.$afterCounting.withValue({
            let bytes = Array(try! Data(contentsOf: path))
            seen.withLock { $0.append(Int(try! MainKeyFileContents.decode(bytes).failedAttempts)) }
        }) {
            _ = vaultError { try MainKeyFile.unlock(in: directory.account, pin: "0000") }
            _ = vaultError { try MainKeyFile.unlock(in: directory.account, pin: "0000") }
            return try? MainKeyFile.unlock(in: directory.account, pin: "1111")
        }
        #expect(unlocked == key)
        // A process killed at the hook would have left 1, 2 and 3 on disk.
        #expect(seen.withLock { $0 } == [1, 2, 3])
        #expect(try failedAttempts(directory) == 0)
    }

    @Test("concurrent wrong PINs are each counted once: the directory lock serialises them")
    func concurrentTries() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try MainKeyFile.create(in: directory.account, key: MainKey.generate(), pin: "1111")
        let errors = Mutex<[VaultError?]>([])
        let account = directory.account
        Blocking.concurrently(4) { _ in
            let error = vaultError { try MainKeyFile.unlock(in: account, pin: "0000") }
            errors.withLock { $0.append(error) }
        }
        // Without the lock two tries could read the same counter and write the same value back.
        let left = errors.withLock { $0 }.compactMap { error -> Int? in
            if case .wrongPIN(let left)? = error { return left }
            return nil
        }
        #expect(left.sorted() == [6, 7, 8, 9])
        #expect(try failedAttempts(directory) == 4)
    }

    @Test("the tenth wrong PIN in a row removes the whole account directory")
    func tenthWrongPINWipes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        try MainKeyFile.create(in: directory.account, key: key, pin: "1111")
        // Other account data beside the key file, including a subdirectory.
        try Data("ciphertext".utf8).write(to: directory.account.appendingPathComponent("client.sqlite"))
        let avatars = directory.account.appendingPathComponent("avatars")
        try FileManager.default.createDirectory(at: avatars, withIntermediateDirectories: true)
        try Data("png".utf8).write(to: avatars.appendingPathComponent("bob.png"))
        let sibling = directory.url.appendingPathComponent("other-account")
        try FileManager.default.createDirectory(at: sibling, withIntermediateDirectories: true)

        for attempt in 1...9 {
            #expect(vaultError { try MainKeyFile.unlock(in: directory.account, pin: "9999") } == .wrongPIN(attemptsLeft: 10 - attempt))
        }
        #expect(FileManager.default.fileExists(atPath: directory.account.path))
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, pin: "9999") } == .wiped)
        #expect(!FileManager.default.fileExists(atPath: directory.account.path))
        #expect(!MainKeyFile.exists(in: directory.account))
        // Only this account: its parent and siblings stay.
        #expect(FileManager.default.fileExists(atPath: sibling.path))
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, pin: "1111") } == .notFound)
    }

    @Test("a counter left at the limit by a process killed before the wipe wipes on the next try, right PIN or not")
    func interruptedWipe() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        try MainKeyFile.create(in: directory.account, key: key, pin: "1111")
        var contents = try MainKeyFileContents.decode(directory.fileBytes())
        contents.failedAttempts = 10
        directory.write(contents.encoded())
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, pin: "1111") } == .wiped)
        #expect(!FileManager.default.fileExists(atPath: directory.account.path))
    }

    @Test("nine wrong PINs then the right one resets the count: no wipe")
    func nineThenRight() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        try MainKeyFile.create(in: directory.account, key: key, pin: "1111")
        for _ in 1...9 { _ = vaultError { try MainKeyFile.unlock(in: directory.account, pin: "2222") } }
        #expect(try failedAttempts(directory) == 9)
        #expect(try MainKeyFile.unlock(in: directory.account, pin: "1111") == key)
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, pin: "2222") } == .wrongPIN(attemptsLeft: 9))
    }

    @Test("changePIN re-wraps the same MainKey; none ↔ pin; a different key is refused")
    func changePIN() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        try MainKeyFile.create(in: directory.account, key: key, pin: nil)
        #expect(try MainKeyFile.protection(in: directory.account) == VaultProtection.none)
        #expect(try MainKeyFile.unlock(in: directory.account, pin: nil) == key)

        try MainKeyFile.changePIN(in: directory.account, key: key, newPIN: "1357")
        #expect(try MainKeyFile.protection(in: directory.account) == .pin)
        _ = vaultError { try MainKeyFile.unlock(in: directory.account, pin: "0000") }
        #expect(try failedAttempts(directory) == 1)

        try MainKeyFile.changePIN(in: directory.account, key: key, newPIN: "8642")
        #expect(try failedAttempts(directory) == 0)
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, pin: "1357") } == .wrongPIN(attemptsLeft: 9))
        #expect(try MainKeyFile.unlock(in: directory.account, pin: "8642") == key)

        #expect(vaultError { try MainKeyFile.changePIN(in: directory.account, key: key, newPIN: "12") } == .weakPIN)
        let before = directory.fileBytes()
        #expect(vaultError { try MainKeyFile.changePIN(in: directory.account, key: MainKey.generate(), newPIN: "4444") } == .cannotDecrypt)
        #expect(directory.fileBytes() == before)

        try MainKeyFile.changePIN(in: directory.account, key: key, newPIN: nil)
        #expect(try MainKeyFile.protection(in: directory.account) == VaultProtection.none)
        #expect(try MainKeyFile.unlock(in: directory.account, pin: nil) == key)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.mainKeyFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("create refuses to replace an existing file; a missing file is notFound")
    func createAndMissing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        #expect(!MainKeyFile.exists(in: directory.account))
        #expect(vaultError { try MainKeyFile.unlock(in: directory.account, pin: nil) } == .notFound)
        #expect(vaultError { try MainKeyFile.protection(in: directory.account) } == .notFound)
        #expect(vaultError { try MainKeyFile.changePIN(in: directory.account, key: key, newPIN: nil) } == .notFound)
        try MainKeyFile.create(in: directory.account, key: key, pin: nil)
        let error = vaultError { try MainKeyFile.create(in: directory.account, key: MainKey.generate(), pin: nil) }
        guard case .io(let message) = error else {
            Issue.record("expected an io error, got \(String(describing: error))")
            return
        }
        #expect(message.contains("already exists"))
        #expect(try MainKeyFile.unlock(in: directory.account, pin: nil) == key)
    }

    @Test("a mode-none file holds the key and unlocks with or without a PIN")
    func modeNone() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = MainKey.generate()
        try MainKeyFile.create(in: directory.account, key: key, pin: nil)
        #expect(try MainKeyFile.unlock(in: directory.account, pin: nil) == key)
        #expect(try MainKeyFile.unlock(in: directory.account, pin: "ignored") == key)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.mainKeyFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}
