import Foundation
@testable import ParleyServer
import Testing

/// `PreKeyStore` behaviour, identical on every backend.
@Suite("Store conformance: prekeys")
struct PreKeyConformanceTests {
    @Test("each fetch consumes one one-time prekey, lowest id first, then bundles come without one", arguments: StoreBackend.allCases)
    func consumption(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let id = try await Sample.activeAccount(store, "ann@example.org")
            // A bundle without a one-time prekey takes none.
            let without = try #require(try await store.takeKeyBundles(accountID: id, takingOneTime: false).first)
            #expect(without.oneTimePreKey == nil && without.signedPreKey == Sample.preKeys().signedPreKey)
            #expect(try await store.oneTimePreKeyCount(accountID: id, deviceID: 1) == 3)
            var taken: [UInt32?] = []
            for _ in 0..<4 { taken.append(try await store.takeKeyBundles(accountID: id).first?.oneTimePreKey?.id) }
            #expect(taken == [1, 2, 3, nil])
            let bundle = try #require(try await store.takeKeyBundles(accountID: id).first)
            #expect(bundle.deviceID == 1)
            #expect(bundle.signedPreKey == Sample.preKeys().signedPreKey)
            #expect(bundle.pqPreKey == Sample.preKeys().pqPreKey)
            #expect(try await store.oneTimePreKeyCount(accountID: id, deviceID: 1) == 0)
            #expect(try await store.takeKeyBundles(accountID: 999_999).isEmpty)
        }
    }

    @Test("concurrent fetches never hand out one one-time prekey twice", arguments: StoreBackend.allCases)
    func concurrentClaims(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ids = Array(UInt32(1)...20)
            let account = try await store.createPendingAccount(
                Sample.account("bob@example.org", oneTimeIDs: ids), verification: Sample.verification(), now: 1)
            let claimed = try await withThrowingTaskGroup(of: UInt32?.self) { group in
                for _ in 0..<30 { group.addTask { try await store.takeKeyBundles(accountID: account).first?.oneTimePreKey?.id } }
                return try await group.reduce(into: [UInt32?]()) { $0.append($1) }
            }
            let keys = claimed.compactMap { $0 }
            #expect(keys.count == 20)
            #expect(Set(keys) == Set(ids))
            #expect(claimed.filter { $0 == nil }.count == 10)
        }
    }

    @Test("adding prekeys replaces signed ones and refuses a duplicate one-time id, atomically", arguments: StoreBackend.allCases)
    func adding(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let id = try await Sample.activeAccount(store, "cy@example.org")
            let signed = PreKeyUpload.Signed(id: 9, publicKey: Sample.bytes(32, 90), signature: Sample.bytes(64, 91))
            try await store.addPreKeys(accountID: id, deviceID: 1, signed: signed, pq: nil, oneTime: [(id: 7, publicKey: Sample.bytes(32, 92))])
            #expect(try await store.oneTimePreKeyCount(accountID: id, deviceID: 1) == 4)
            await #expect(throws: StoreError.conflict("a one-time prekey with this id")) {
                try await store.addPreKeys(
                    accountID: id, deviceID: 1, signed: nil, pq: nil,
                    oneTime: [(id: 8, publicKey: Sample.bytes(32, 93)), (id: 7, publicKey: Sample.bytes(32, 94))])
            }
            // The failed upload stored nothing, not even its first, valid key.
            #expect(try await store.oneTimePreKeyCount(accountID: id, deviceID: 1) == 4)
            let bundle = try #require(try await store.takeKeyBundles(accountID: id).first)
            #expect(bundle.signedPreKey == signed)
            #expect(bundle.pqPreKey == Sample.preKeys().pqPreKey)
        }
    }

    @Test("a device holds at most the limit of one-time prekeys: an upload past it changes nothing, even at once", arguments: StoreBackend.allCases)
    func oneTimeLimit(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let id = try await Sample.activeAccount(store, "dee@example.org")  // device 1 holds 3
            func keys(_ ids: Range<UInt32>) -> [(id: UInt32, publicKey: [UInt8])] { ids.map { ($0, Sample.bytes(32, UInt8($0 % 200))) } }
            let signed = PreKeyUpload.Signed(id: 9, publicKey: Sample.bytes(32, 90), signature: Sample.bytes(64, 91))
            #expect(try await store.addPreKeys(accountID: id, deviceID: 1, signed: nil, pq: nil, oneTime: keys(10..<17), maximumOneTime: 10) == .added(count: 10))
            #expect(try await store.addPreKeys(accountID: id, deviceID: 1, signed: signed, pq: nil, oneTime: keys(20..<21), maximumOneTime: 10)
                    == .tooMany(stored: 10))
            #expect(try await store.oneTimePreKeyCount(accountID: id, deviceID: 1) == 10)
            #expect(try await store.takeKeyBundles(accountID: id).first?.signedPreKey == Sample.preKeys().signedPreKey,
                    "the refused upload's signed prekey was not kept either")
            // One was taken: room for exactly one, and a signed prekey alone always fits.
            #expect(try await store.addPreKeys(accountID: id, deviceID: 1, signed: nil, pq: nil, oneTime: keys(30..<32), maximumOneTime: 10) == .tooMany(stored: 9))
            #expect(try await store.addPreKeys(accountID: id, deviceID: 1, signed: signed, pq: nil, oneTime: keys(30..<31), maximumOneTime: 10) == .added(count: 10))
            #expect(try await store.addPreKeys(accountID: id, deviceID: 1, signed: signed, pq: nil, oneTime: [], maximumOneTime: 10) == .added(count: 10))

            // Twelve uploads of 5 at once against a limit of 40, with the device holding 10: exactly six fit.
            let results = try await withThrowingTaskGroup(of: PreKeyAddition.self) { group in
                for index in UInt32(0)..<12 {
                    group.addTask {
                        try await store.addPreKeys(accountID: id, deviceID: 1, signed: nil, pq: nil, oneTime: keys(100 + index * 5..<105 + index * 5), maximumOneTime: 40)
                    }
                }
                return try await group.reduce(into: [PreKeyAddition]()) { $0.append($1) }
            }
            #expect(results.filter { if case .added = $0 { true } else { false } }.count == 6, "\(results)")
            #expect(try await store.oneTimePreKeyCount(accountID: id, deviceID: 1) == 40)
        }
    }
}
