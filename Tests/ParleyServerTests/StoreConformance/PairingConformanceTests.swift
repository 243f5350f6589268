import Foundation
@testable import ParleyServer
import Testing

/// Devices and pairings behave the same on SQLite and PostgreSQL.
@Suite("Store conformance: devices and pairings")
struct PairingConformanceTests {
    static func pairing(_ id: UInt32, email: String = "ann@example.org", expiresAt: Int64 = 10_000) -> PairingRecord {
        PairingRecord(id: id, email: email, deviceName: "phone", newDeviceKey: Sample.bytes(32, 3), tokenHash: Sample.bytes(32, 4), expiresAt: expiresAt)
    }

    @Test("device ids are never reused, concurrent adds get distinct ids, last_seen only moves forward", arguments: StoreBackend.allCases)
    func devices(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let id = try await Sample.activeAccount(store, "ann@example.org", now: 5)
            let second = try await store.addDevice(accountID: id, name: "phone", preKeys: Sample.preKeys(), pairingID: nil, limit: 32, now: 7)!
            #expect(second == DeviceRecord(accountID: id, deviceID: 2, name: "phone", createdAt: 7, lastSeen: 7))
            try await store.removeDevice(accountID: id, deviceID: 2)
            let third = try await store.addDevice(accountID: id, name: "tablet", preKeys: Sample.preKeys(), pairingID: nil, limit: 32, now: 8)!
            #expect(third.deviceID == 3)
            let added = try await withThrowingTaskGroup(of: UInt32.self) { group in
                for _ in 0..<6 {
                    group.addTask { try await store.addDevice(accountID: id, name: "x", preKeys: Sample.preKeys(), pairingID: nil, limit: 32, now: 9)!.deviceID }
                }
                return try await group.reduce(into: [UInt32]()) { $0.append($1) }
            }
            #expect(Set(added) == Set(4...9))
            #expect(try await store.takeKeyBundles(accountID: id).count == 8)
            try await store.touchDevice(accountID: id, deviceID: 1, at: 50)
            try await store.touchDevice(accountID: id, deviceID: 1, at: 40)
            #expect(try await store.device(accountID: id, deviceID: 1)?.lastSeen == 50)
            try await store.touchDevice(accountID: id, deviceID: 99, at: 60)  // unknown: nothing happens
            #expect(try await store.devices(accountID: id).count == 8)
        }
    }

    @Test("pairings: limit per e-mail, id conflicts, expiry, sealed once", arguments: StoreBackend.allCases)
    func pairings(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            for id in UInt32(1)...3 { #expect(try await store.createPairing(Self.pairing(id), now: 0, maximumOpen: 3)) }
            #expect(try await store.createPairing(Self.pairing(4), now: 0, maximumOpen: 3) == false)
            #expect(try await store.pairing(id: 4, now: 0) == nil)
            #expect(try await store.createPairing(Self.pairing(5, email: "bob@example.org"), now: 0, maximumOpen: 3))
            await #expect(throws: StoreError.self) { try await store.createPairing(Self.pairing(1, email: "eve@example.org"), now: 0, maximumOpen: 3) }
            #expect(try await store.pairing(id: 1, now: 0)?.state == .waiting)
            #expect(try await store.sealPairing(id: 1, authorizingKey: Sample.bytes(32, 5), keysBox: [9, 9], now: 1))
            #expect(try await store.sealPairing(id: 1, authorizingKey: Sample.bytes(32, 6), keysBox: [8], now: 1) == false)
            let sealed = try #require(try await store.pairing(id: 1, now: 1))
            #expect(sealed.state == .sealed && sealed.keysBox == [9, 9] && sealed.authorizingKey == Sample.bytes(32, 5))
            #expect(try await store.sealPairing(id: 77, authorizingKey: [1], keysBox: [1], now: 1) == false)
            // Expired pairings are invisible, cannot be sealed, and are swept by the next creation.
            #expect(try await store.pairing(id: 2, now: 10_001) == nil)
            #expect(try await store.sealPairing(id: 2, authorizingKey: [1], keysBox: [1], now: 10_001) == false)
            #expect(try await store.createPairing(Self.pairing(6, expiresAt: 30_000), now: 10_001, maximumOpen: 3))
            #expect(try await store.pairing(id: 1, now: 0) == nil)
        }
    }

    @Test("history chunks: in order, bounded, closed after the last, gone with the pairing", arguments: StoreBackend.allCases)
    func chunks(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            #expect(try await store.createPairing(Self.pairing(1), now: 0, maximumOpen: 3))
            #expect(try await store.appendPairingChunk(id: 1, seq: 1, chunk: [1], last: false, maximumBytes: 10, now: 0) == .outOfOrder(stored: 0))
            #expect(try await store.appendPairingChunk(id: 1, seq: 0, chunk: Sample.bytes(6), last: false, maximumBytes: 10, now: 0) == .stored(1))
            #expect(try await store.appendPairingChunk(id: 1, seq: 1, chunk: Sample.bytes(5), last: true, maximumBytes: 10, now: 0) == .tooLarge)
            #expect(try await store.appendPairingChunk(id: 1, seq: 1, chunk: Sample.bytes(4, 2), last: true, maximumBytes: 10, now: 0) == .stored(2))
            #expect(try await store.appendPairingChunk(id: 1, seq: 2, chunk: [1], last: true, maximumBytes: 10, now: 0) == .closed)
            #expect(try await store.appendPairingChunk(id: 9, seq: 0, chunk: [1], last: true, maximumBytes: 10, now: 0) == .notFound)
            let pairing = try #require(try await store.pairing(id: 1, now: 0))
            #expect(pairing.state == .ready && pairing.chunkCount == 2 && pairing.chunkBytes == 10)
            let first = try #require(try await store.pairingChunk(id: 1, seq: 0, now: 0))
            #expect(first.chunk == Sample.bytes(6) && first.last == false)
            #expect(try await store.pairingChunk(id: 1, seq: 1, now: 0)?.last == true)
            #expect(try await store.pairingChunk(id: 1, seq: 2, now: 0) == nil)
            #expect(try await store.pairingChunk(id: 1, seq: 0, now: 10_001) == nil)
            try await store.deletePairing(id: 1)
            #expect(try await store.pairingChunk(id: 1, seq: 0, now: 0) == nil)
            #expect(try await store.pairing(id: 1, now: 0) == nil)
        }
    }

    @Test("add_device names its pairing in the same transaction", arguments: StoreBackend.allCases)
    func deviceJoinsPairing(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let id = try await Sample.activeAccount(store, "ann@example.org")
            #expect(try await store.createPairing(Self.pairing(42), now: 0, maximumOpen: 3))
            #expect(try await store.sealPairing(id: 42, authorizingKey: Sample.bytes(32), keysBox: [1], now: 0))
            let device = try await store.addDevice(accountID: id, name: "phone", preKeys: Sample.preKeys(), pairingID: 42, limit: 32, now: 3)!
            let pairing = try #require(try await store.pairing(id: 42, now: 0))
            #expect(pairing.deviceID == device.deviceID && pairing.state == .joined)
        }
    }

    @Test("an account at its device limit gets no more, even when eight devices are added at once, and nothing changes", arguments: StoreBackend.allCases)
    func deviceLimit(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let id = try await Sample.activeAccount(store, "ann@example.org")
            let added = try await withThrowingTaskGroup(of: UInt32?.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await store.addDevice(accountID: id, name: "x", preKeys: Sample.preKeys(), pairingID: nil, limit: 4, now: 2)?.deviceID }
                }
                return try await group.reduce(into: [UInt32?]()) { $0.append($1) }
            }
            #expect(added.compactMap { $0 }.count == 3, "the account's first device and three more make four")
            #expect(try await store.devices(accountID: id).count == 4)
            #expect(try await store.takeKeyBundles(accountID: id).count == 4, "a refused device's prekeys are not stored")

            // A refused add leaves its pairing unjoined.
            #expect(try await store.createPairing(Self.pairing(7), now: 0, maximumOpen: 3))
            #expect(try await store.sealPairing(id: 7, authorizingKey: Sample.bytes(32), keysBox: [1], now: 0))
            #expect(try await store.addDevice(accountID: id, name: "y", preKeys: Sample.preKeys(), pairingID: 7, limit: 4, now: 3) == nil)
            let pairing = try #require(try await store.pairing(id: 7, now: 0))
            #expect(pairing.deviceID == nil && pairing.state == .sealed)

            // Removing one makes room; ids still never repeat.
            let highest = try await store.devices(accountID: id).map(\.deviceID).max()!
            try await store.removeDevice(accountID: id, deviceID: highest)
            let next = try #require(try await store.addDevice(accountID: id, name: "z", preKeys: Sample.preKeys(), pairingID: 7, limit: 4, now: 4))
            #expect(next.deviceID > highest)
        }
    }
}
