import Foundation
@testable import ParleyClient
import ParleyCrypto
import ParleyTestSupport
import ParleyVault
import Testing

/// The OpenPGP key store as a component: sealed records, one per fingerprint, without a server or the actor.
@Suite("PGP key vault")
struct PGPKeyVaultTests {
    @Test("keys are kept sealed, replaced by fingerprint and listed in order")
    func keptSealedReplacedAndSorted() throws {
        let account = try ScratchAccount("pgp-vault")
        let (path, lock) = (account.path, account.lock)
        let vault = PGPKeyVault(dependencies: account.context())
        let secret = Array("-----BEGIN PGP PRIVATE KEY BLOCK----- a distinctive marker 7f3a9c".utf8)
        try vault.store(fingerprint: "BBBB", bytes: [1, 2, 3])
        try vault.store(fingerprint: "AAAA", bytes: secret)
        try vault.store(fingerprint: "BBBB", bytes: [4, 5])
        let all = try vault.all()
        #expect(all.map(\.fingerprint) == ["AAAA", "BBBB"])
        #expect(all.map(\.bytes) == [secret, [4, 5]])
        // Nothing of the key is readable in the database file.
        let file = try Data(contentsOf: path) + ((try? Data(contentsOf: URL(fileURLWithPath: path.path + "-wal"))) ?? Data())
        #expect(file.range(of: Data("distinctive marker".utf8)) == nil)
        // A locked vault gives nothing out.
        lock.lock()
        #expect(throws: ClientError.self) { try vault.all() }
    }
}
