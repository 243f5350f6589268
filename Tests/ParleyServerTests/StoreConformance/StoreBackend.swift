import Foundation
import Logging
@testable import ParleyServer
import Testing

/// The two `Store` implementations; every conformance test runs against each.
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh, empty, migrated store (a new SQLite file or a new PostgreSQL database)
    /// and releases it afterwards, whether `body` throws or not.
    func withStore(_ body: (any Store) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-store-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try SQLiteStore(path: directory.appendingPathComponent("parley.sqlite").path)
            try await body(store)
        case .postgres:
            try await Self.withPostgresStore(body)
        }
    }

    /// Runs `body` with a fresh, empty, migrated PostgreSQL store (a new database), closed and dropped afterwards
    /// whether `body` throws or not.
    static func withPostgresStore(maximumConnections: Int = 8, _ body: (PostgresStore) async throws -> Void) async throws {
        try await withPostgresStores(1, maximumConnections: maximumConnections) { stores in try await body(stores[0]) }
    }

    /// `withPostgresStore` with `count` stores on the one database, as `count` nodes of a cluster have.
    static func withPostgresStores(
        _ count: Int, maximumConnections: Int = 8, _ body: ([PostgresStore]) async throws -> Void
    ) async throws {
        var logger = Logger(label: "parley.test-store")
        logger.logLevel = .critical
        let url = try await PostgresCluster.newDatabase()
        var stores: [PostgresStore] = []
        func closeAll() async {
            for store in stores { await store.close() }
            await PostgresCluster.dropDatabase(url)
        }
        do {
            for _ in 0..<count {
                // A generous call timeout: on a loaded 2-core machine a pool wait can pass the 15 s default.
                stores.append(try await PostgresStore.connect(url, logger: logger, maximumConnections: maximumConnections, callTimeout: .seconds(120)))
            }
            try await body(stores)
        } catch {
            await closeAll()
            throw error
        }
        await closeAll()
    }
}

/// Sample values for store-level tests: public keys are random bytes, which the store never interprets.
enum Sample {
    static func bytes(_ count: Int, _ seed: UInt8 = 1) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: Int(seed) &* 31 &+ $0) }
    }

    static func preKeys(oneTimeIDs: [UInt32] = [1, 2, 3], signedID: UInt32 = 1) -> PreKeyUpload {
        PreKeyUpload(
            signedPreKey: .init(id: signedID, publicKey: bytes(32, 2), signature: bytes(64, 3)),
            pqPreKey: .init(id: signedID, publicKey: bytes(1184, 4), signature: bytes(64, 5)),
            oneTimePreKeys: oneTimeIDs.map { (id: $0, publicKey: bytes(32, UInt8(truncatingIfNeeded: $0))) })
    }

    static func account(_ email: String, oneTimeIDs: [UInt32] = [1, 2, 3]) -> NewAccount {
        NewAccount(
            email: email, displayName: email.split(separator: "@").first.map(String.init) ?? email,
            identityKey: bytes(32, 7), authKey: bytes(32, 8), keyEnvelope: bytes(80, 9), deviceName: "laptop",
            preKeys: preKeys(oneTimeIDs: oneTimeIDs))
    }

    static func verification(expiresAt: Int64 = 10_000) -> VerificationRecord {
        VerificationRecord(codeHash: bytes(32, 11), expiresAt: expiresAt, failedAttempts: 0)
    }

    /// An active account; returns its id.
    static func activeAccount(_ store: any Store, _ email: String, now: Int64 = 1_000) async throws -> Int64 {
        let id = try await store.createPendingAccount(account(email), verification: verification(), now: now)
        try await store.activateAccount(email: email)
        return id
    }

    /// A message from `sender` (device 1) with one envelope per (account, device) and a self copy.
    static func message(
        _ conversationID: Int64, from sender: Int64, to recipients: [(Int64, UInt32)], clientID: String, kind: String = "text"
    ) -> NewMessage {
        NewMessage(
            conversationID: conversationID, senderID: sender, senderDevice: 1, clientMessageID: clientID, kind: kind, replyTo: nil,
            envelopes: recipients.map { Envelope(accountID: $0.0, deviceID: $0.1, ciphertext: Array("to-\($0.0)-\($0.1):\(clientID)".utf8)) })
    }
}

/// Whether `error` is the `StoreError` case expected (ignoring its wording).
func isConflict(_ error: any Error) -> Bool {
    if case .conflict = error as? StoreError { return true }
    return false
}

/// Whether `error` is `.unavailable` (ignoring its wording).
func isUnavailable(_ error: any Error) -> Bool {
    if case .unavailable = error as? StoreError { return true }
    return false
}
