import Foundation
@testable import ParleyVault
import Testing

@Suite("Vault file system")
struct VaultFileSystemTests {
    @Test("writes replace the file whole, 0600, leaving no temporary file")
    func atomicReplace() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.url.appendingPathComponent("f")
        try VaultFileSystem.writeAtomically([1, 2, 3], to: target)
        try VaultFileSystem.writeAtomically([4], to: target)
        #expect(try VaultFileSystem.readAll(target, limit: 10) == [4])
        let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["f"])
    }

    @Test("file system failures are io errors that name the path; a missing file is notFound")
    func failures() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.url.appendingPathComponent("no/such/dir/mainkey")
        guard case .io(let message) = vaultError({ try VaultFileSystem.writeAtomically([1], to: missing) }) else {
            Issue.record("writing into a missing directory must be an io error")
            return
        }
        #expect(message.contains(directory.url.path))
        #expect(vaultError { try VaultFileSystem.readAll(missing, limit: 10) } == .notFound)
        // Reading a directory as the key file.
        guard case .io = vaultError({ try VaultFileSystem.readAll(directory.url, limit: 10) }) else {
            Issue.record("reading a directory must be an io error")
            return
        }
        // An account directory that cannot be created because a file is in the way.
        let blocker = directory.url.appendingPathComponent("blocker")
        #expect(FileManager.default.createFile(atPath: blocker.path, contents: Data([0])))
        let account = blocker.appendingPathComponent("account")
        guard case .io = vaultError({ try MainKeyFile.create(in: account, key: MainKey.generate(), pin: nil) }) else {
            Issue.record("creating under a regular file must be an io error")
            return
        }
    }

    @Test("a file exactly at the limit is read; one byte more is corrupt")
    func limit() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.url.appendingPathComponent("f")
        try VaultFileSystem.writeAtomically([UInt8](repeating: 9, count: 10_000), to: target)
        #expect(try VaultFileSystem.readAll(target, limit: 10_000).count == 10_000)
        #expect(vaultError { try VaultFileSystem.readAll(target, limit: 9_999) } == .corrupt)
    }
}
