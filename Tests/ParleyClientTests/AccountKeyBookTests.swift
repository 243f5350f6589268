import Foundation
@testable import ParleyClient
import ParleyClientFormats
import ParleyProtocol
import ParleyWire
import Testing

/// The account's keys shared by the actor and its components: changes never interleave, a failed write changes
/// nothing, and what is current is what a reopened account reads.
@Suite("Account key book and prekey mint")
struct AccountKeyBookTests {
    static func sampleKeys() -> AccountKeys {
        AccountKeys(
            email: "ann@example.org", displayName: "Ann", server: ServerAddress(host: "127.0.0.1", port: 1),
            identitySeed: Array(repeating: 1, count: 32), authSeed: Array(repeating: 2, count: 32), accountID: nil, deviceID: nil,
            deviceName: "laptop", nextPreKeyID: 1, nextSignedPreKeyID: 1)
    }

    static func stored(_ database: ClientDatabase) throws -> AccountKeys? {
        try database.read { try $0.get(Namespace.account, "keys") }.map { bytes throws(ClientError) in try AccountKeys.decode(bytes) }
    }

    @Test("a change is stored with what goes beside it; a change that fails, or whose write fails, leaves the keys as they were")
    func changeIsAllOrNothing() throws {
        let account = try ScratchAccount("keybook")
        let book = AccountKeyBook(Self.sampleKeys(), database: account.database)
        try book.change { keys throws(ClientError) in keys.displayName = "Ann B." } alongside: { writer, _, _ in
            try writer.put(Namespace.state, "beside", [7])
        }
        #expect(book.current.displayName == "Ann B.")
        #expect(try Self.stored(account.database)?.displayName == "Ann B.")
        #expect(try account.database.read { try $0.get(Namespace.state, "beside") } == [7])

        #expect(throws: ClientError.invalidInput("no")) {
            try book.change { keys throws(ClientError) in
                keys.displayName = "half-made"
                throw .invalidInput("no")
            }
        }
        struct WriteFailed: Error {}
        #expect(throws: ClientError.self) {
            try book.change { keys throws(ClientError) in keys.displayName = "not written" } alongside: { writer, _, _ in
                try writer.put(Namespace.state, "beside", [8])
                throw WriteFailed()
            }
        }
        #expect(book.current.displayName == "Ann B.")
        #expect(try Self.stored(account.database)?.displayName == "Ann B.")
        #expect(try account.database.read { try $0.get(Namespace.state, "beside") } == [7], "the transaction rolled back whole")
    }

    @Test("reading the keys inside a database write while another thread changes them does not deadlock")
    func readingInsideAWriteWhileAChangeWaits() throws {
        let account = try ScratchAccount("keybook-locks")
        let book = AccountKeyBook(Self.sampleKeys(), database: account.database)
        let insideWrite = DispatchSemaphore(value: 0), changeStarted = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0), changerDone = DispatchSemaphore(value: 0)
        let database = account.database
        // The receive path's shape: a transaction that reads the keys (to know this device) while it holds the
        // database; meanwhile a component changes the keys and so waits for the database.
        DispatchQueue.global().async {
            try? database.write { _ in
                insideWrite.signal()
                _ = changeStarted.wait(timeout: .now() + 5)
                Thread.sleep(forTimeInterval: 0.2)   // the change is now waiting for the database
                _ = book.current
            }
            readerDone.signal()
        }
        _ = insideWrite.wait(timeout: .now() + 5)
        DispatchQueue.global().async {
            changeStarted.signal()
            try? book.change { keys throws(ClientError) in keys.displayName = "changed meanwhile" }
            changerDone.signal()
        }
        let read = readerDone.wait(timeout: .now() + 10), changed = changerDone.wait(timeout: .now() + 10)
        #expect(read == .success, "the transaction never finished: a deadlock")
        #expect(changed == .success, "the change never finished: a deadlock")
        // Only when nothing is stuck: a deadlocked change would hold the keys' lock for ever.
        if read == .success, changed == .success { #expect(book.current.displayName == "changed meanwhile") }
    }

    @Test("prekeys made from many tasks at once never share an id, and every one made is stored with the counters past it")
    func concurrentMintingNeverReusesIDs() async throws {
        let account = try ScratchAccount("mint")
        let book = AccountKeyBook(Self.sampleKeys(), database: account.database)
        let mint = PreKeyMint(keys: book, dependencies: account.context())
        let rounds = 12
        let made = try await withThrowingTaskGroup(of: API.PreKeys.self) { group in
            for _ in 0..<rounds { group.addTask { try mint.fresh(includeOneTime: true) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let oneTime = made.flatMap(\.oneTime).map(\.id)
        #expect(oneTime.count == rounds * PreKeyPolicy.batchSize)
        #expect(Set(oneTime).count == oneTime.count, "a one-time prekey id was handed out twice")
        #expect(Set(made.map(\.signed.id)).count == rounds, "a signed prekey id was handed out twice")
        #expect(book.current.nextPreKeyID == UInt32(rounds * PreKeyPolicy.batchSize + 1))
        #expect(book.current.nextSignedPreKeyID == UInt32(rounds + 1))
        #expect(try Self.stored(account.database)?.nextPreKeyID == book.current.nextPreKeyID)
        let store = VaultProtocolStore(database: account.database, identity: book.current.identity)
        for pre in made.flatMap(\.oneTime) {
            #expect(try store.loadPreKey(id: pre.id)?.keyPair.publicKey == pre.key, "prekey \(pre.id) is not the one stored")
        }
    }
}
