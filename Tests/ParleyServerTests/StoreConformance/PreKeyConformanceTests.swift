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
}
