import Foundation
import Logging
import NIOSSL
import PostgresNIO
import Synchronization

/// The `Store` on PostgreSQL, for servers that outgrow one SQLite file: pooled connections
/// (`PostgresClient`), the same schema and behaviour as `SQLiteStore`, and versioned migrations
/// applied at connect.
///
/// Each method runs as one transaction; a transaction that fails with a serialization failure or a
/// deadlock (SQLSTATE 40001, 40P01) is run again, a bounded number of times. Errors carry only an
/// SQLSTATE, never SQL text or bound values (which can be keys or ciphertexts).
public final class PostgresStore: Store {
    let client: PostgresClient
    let logger: Logger
    /// How long one store call may take, waiting for a pooled connection included. The pool waits for a
    /// connection without limit, so with the database gone every request (and a graceful shutdown, which
    /// finishes requests in flight) would wait forever; this turns that into an `unavailable` answer.
    let callTimeout: Duration
    /// Sends and delivery confirmations that arrive together share a transaction (`PostgresGroupCommit`).
    let groupCommit = PostgresGroupCommit()
    private let runner: Task<Void, Never>

    /// The default `callTimeout` (`parley server --database-timeout`).
    public static let defaultCallTimeout: Duration = .seconds(15)

    /// How often one method's transaction is tried before its failure is reported.
    static let maximumAttempts = 5

    /// Connects, applies pending migrations, and starts the connection pool. Call `close()` when done.
    public static func connect(
        _ url: PostgresURL, logger: Logger, maximumConnections: Int = 20, callTimeout: Duration = defaultCallTimeout
    ) async throws -> PostgresStore {
        // Migrate on one direct connection first: an unreachable server or a wrong password fails
        // here at once with a clear reason, instead of leaving pool requests waiting.
        let connection = try await openConnection(url, logger: logger)
        do {
            try await PostgresMigrations.migrate(connection, logger: logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw storeError(error, "migration")
        }
        var configuration = try clientConfiguration(url)
        configuration.options.maximumConnections = maximumConnections
        return PostgresStore(
            client: PostgresClient(configuration: configuration, backgroundLogger: logger), logger: logger, callTimeout: callTimeout)
    }

    private init(client: PostgresClient, logger: Logger, callTimeout: Duration) {
        self.client = client
        self.logger = logger
        self.callTimeout = callTimeout
        runner = Task { await client.run() }
    }

    /// Stops the pool; calls in flight fail, later calls fail at once.
    public func close() async {
        runner.cancel()
        // The pool's run() has been seen to outlive its cancellation while it retries a database that is gone,
        // which kept `parley server` from ever ending on SIGTERM. Every acknowledged write is committed before its
        // answer, so at shutdown the store waits at most `closeDeadline` for the pool, then lets the process end.
        let runner = runner
        _ = try? await Deadline.race(Self.closeDeadline, late: { StoreError.unavailable("the connection pool did not stop") }) {
            await runner.value
        }
    }

    /// How long `close` waits for the connection pool to stop.
    static let closeDeadline = Duration.seconds(10)
}

extension PostgresStore {

    /// Opens one unpooled connection (migrations, `--check`).
    static func openConnection(_ url: PostgresURL, logger: Logger) async throws -> PostgresConnection {
        let configuration: PostgresConnection.Configuration
        switch url.endpoint {
        case .tcp(let host, let port):
            let tls: PostgresConnection.Configuration.TLS
            switch url.tls {
            case .disable: tls = .disable
            case .require:
                do {
                    tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                } catch {
                    throw StoreError.unavailable("cannot set up TLS for \(url)")
                }
            }
            configuration = .init(host: host, port: port, username: url.user, password: url.password, database: url.database, tls: tls)
        case .unixSocket:
            configuration = .init(
                unixSocketPath: url.endpoint.socketPath ?? "", username: url.user, password: url.password, database: url.database)
        }
        do {
            return try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        } catch {
            throw StoreError.unavailable("cannot connect to \(url) (\(reason(error)))")
        }
    }

    static func clientConfiguration(_ url: PostgresURL) throws -> PostgresClient.Configuration {
        switch url.endpoint {
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS = url.tls == .require ? .require(.makeClientConfiguration()) : .disable
            return .init(host: host, port: port, username: url.user, password: url.password, database: url.database, tls: tls)
        case .unixSocket:
            return .init(unixSocketPath: url.endpoint.socketPath ?? "", username: url.user, password: url.password, database: url.database)
        }
    }

    /// A LIMIT value: SQLite reads a negative limit as "no limit", PostgreSQL refuses it; NULL means none.
    static func sqlLimit(_ limit: Int) -> Int64? {
        limit < 0 ? nil : Int64(limit)
    }

    /// The SQLSTATE of a server error, if the error is one.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// A reason safe to show: the SQLSTATE or the error kind, never the server's message (it can quote values).
    static func reason(_ error: any Error) -> String {
        if let state = sqlState(error) { return "SQLSTATE \(state)" }
        if let error = error as? PSQLError { return "\(error.code)" }
        return "\(type(of: error))"
    }

    /// Unique violations become `.conflict(what)`; everything else `.unavailable` with a safe reason.
    static func storeError(_ error: any Error, _ what: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if sqlState(error) == "23505" { return .conflict(what) }
        return .unavailable("\(what) failed (\(reason(error)))")
    }

    /// Runs `body` in one transaction, retried on serialization failure or deadlock (and, when
    /// `retryOnConflict`, on a unique violation: a concurrent insert of the same key that the
    /// retry will find). Unique violations map to `.conflict(what)`.
    func transaction<T: Sendable>(
        _ what: String, retryOnConflict: Bool = false, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        try await autocommitted(what, retryOnConflict: retryOnConflict) { connection, logger in
            try await connection.query("BEGIN", logger: logger)
            do {
                let value = try await body(connection, logger)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Runs `body` on a pooled connection, its statements each their own transaction (one statement that does all
    /// the work, or statements that may commit one by one: two round trips fewer than `transaction`), again after
    /// a serialization failure or deadlock (or a unique violation, when `retryOnConflict`), a bounded number of times.
    func autocommitted<T: Sendable>(
        _ what: String, retryOnConflict: Bool = false, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        let started = ContinuousClock.now
        defer { ServerMetrics.store(ContinuousClock.now - started) }
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await withinCallTimeout(what) { [client, logger] in
                    try await client.withConnection { connection in try await body(connection, logger) }
                }
            } catch {
                let state = Self.sqlState(error)
                let retryable = state == "40001" || state == "40P01" || (retryOnConflict && state == "23505")
                guard retryable, attempt < Self.maximumAttempts else { throw Self.storeError(error, what) }
                // A short, growing, jittered pause so the transactions that collided do not collide again.
                try? await Task.sleep(for: .milliseconds(Int.random(in: 1...10) * attempt))
            }
        }
    }

    /// Runs `body`, or throws `.unavailable` after `callTimeout` (cancelling it).
    func withinCallTimeout<T: Sendable>(_ what: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let timeout = callTimeout
        return try await Deadline.race(timeout, late: {
            StoreError.unavailable("\(what) failed (the database did not answer within \(timeout))")
        }, body)
    }

    /// Runs a read on one pooled connection.
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { ServerMetrics.store(ContinuousClock.now - started) }
        do {
            return try await withinCallTimeout("read") { [client, logger] in
                try await client.withConnection { connection in try await body(connection, logger) }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.unavailable("read failed (\(Self.reason(error)))")
        }
    }
}

extension PostgresConnection {
    /// Every row of a query, with columns addressable by name.
    func rows(_ query: PostgresQuery, _ logger: Logger) async throws -> [PostgresRandomAccessRow] {
        try await self.query(query, logger: logger).collect().map { $0.makeRandomAccess() }
    }

    /// The first row of a query, if any.
    func row(_ query: PostgresQuery, _ logger: Logger) async throws -> PostgresRandomAccessRow? {
        try await rows(query, logger).first
    }

    /// The first column of the first row, if any.
    func scalar<T: PostgresDecodable>(_ query: PostgresQuery, _ logger: Logger, as type: T.Type = T.self) async throws -> T? {
        guard let row = try await rows(query, logger).first else { return nil }
        let cell = row[0]
        guard cell.bytes != nil else { return nil }  // SQL NULL
        return try cell.decode(T.self)
    }

    /// The first column of every row.
    func column<T: PostgresDecodable>(_ query: PostgresQuery, _ logger: Logger, as type: T.Type = T.self) async throws -> [T] {
        try await rows(query, logger).map { try $0[0].decode(T.self) }
    }

    /// Runs a statement for its effect only.
    func run(_ query: PostgresQuery, _ logger: Logger) async throws {
        _ = try await self.query(query, logger: logger).collect()
    }
}

extension PostgresRandomAccessRow {
    /// A column decoded by name.
    func get<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        try self[column].decode(T.self)
    }

    /// A BYTEA column as bytes.
    func bytes(_ column: String) throws -> [UInt8] {
        Array(try self[column].decode(Data.self))
    }

    /// A nullable BYTEA column as bytes.
    func optionalBytes(_ column: String) throws -> [UInt8]? {
        try self[column].decode(Data?.self).map { Array($0) }
    }
}
