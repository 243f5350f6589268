import Foundation
import Logging

/// The store a configuration names, with what must run when the server is done with it.
public struct OpenedStore: Sendable {
    /// The store to hand to `ServerContext`.
    public let store: any Store
    private let closer: @Sendable () async -> Void

    /// Wraps a store and its shutdown.
    public init(store: any Store, close: @escaping @Sendable () async -> Void = {}) {
        self.store = store
        closer = close
    }

    /// Releases the store's connections (the PostgreSQL pool); SQLite needs nothing.
    public func close() async {
        await closer()
    }
}

extension ServerConfiguration {
    /// Opens (and migrates) the configured database: PostgreSQL when `databaseURL` is set, else SQLite in the data directory.
    public func openStore(logger: Logger) async throws -> OpenedStore {
        if let url = databaseURL {
            let store = try await PostgresStore.connect(url, logger: logger)
            return OpenedStore(store: store) { await store.close() }
        }
        return OpenedStore(store: try SQLiteStore(path: databasePath))
    }
}
