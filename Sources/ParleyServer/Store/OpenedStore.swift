import Foundation
import Logging
import ParleyCrypto

/// The store a configuration names, with what must run when the server is done with it.
public struct OpenedStore: Sendable {
    /// The store to hand to `ServerContext`.
    public let store: any Store
    /// On PostgreSQL, this node's link to the other nodes on the same database (hand it to `ServerContext`).
    public let backplane: PostgresBackplane?
    private let closer: @Sendable () async -> Void

    /// Wraps a store and its shutdown.
    public init(store: any Store, backplane: PostgresBackplane? = nil, close: @escaping @Sendable () async -> Void = {}) {
        self.store = store
        self.backplane = backplane
        closer = close
    }

    /// Leaves the cluster and releases the store's connections (the PostgreSQL pool), or lets SQLite's
    /// background checkpoint finish.
    public func close() async {
        await closer()
    }
}

extension ServerConfiguration {
    /// Opens (and migrates) the configured database: PostgreSQL when `databaseURL` is set — joining the
    /// nodes on that database — else SQLite in the data directory.
    public func openStore(logger: Logger, clock: any WallClock = SystemWallClock()) async throws -> OpenedStore {
        if let url = databaseURL {
            let store = try await PostgresStore.connect(url, logger: logger, callTimeout: databaseCallTimeout)
            let backplane = PostgresBackplane(store: store, url: url, clock: clock, logger: logger)
            do {
                try await backplane.start()
            } catch {
                await backplane.close()
                await store.close()
                throw error
            }
            return OpenedStore(store: store, backplane: backplane) {
                await backplane.close()
                await store.close()
            }
        }
        let store = try SQLiteStore(path: databasePath)
        return OpenedStore(store: store) { await store.close() }
    }
}
