import Foundation
import Logging
import NIOCore
import ParleyCrypto
import ParleyServer
import ParleyTestSupport
import ServiceLifecycle

/// A real server on 127.0.0.1, port 0, with SQLite in a fresh temporary directory (or, for
/// `.postgres`, a fresh database on the test process's throwaway PostgreSQL cluster).
final class TestServer: Sendable {
    let directory: URL
    let opened: OpenedStore
    let databaseURL: PostgresURL?
    /// Whether stopping drops the database (false for a node that joined another's).
    let ownsDatabase: Bool
    let server: ParleyServer
    let group: ServiceGroup
    let clock: ManualServerClock
    let port: Int
    let runner: Task<Void, any Error>

    /// `joining`: another node's database, for a cluster of servers on one PostgreSQL database.
    static func start(
        backend: StoreBackend = .sqlite, joining database: PostgresURL? = nil, _ adjust: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        PoolWatch.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, dataDirectory: directory, development: true)
        // Tests are about behaviour, not the login deadline (TransportTests sets its own): on two cores running
        // the whole suite, the time from connecting to a login can exceed the default 30 s.
        configuration.loginTimeoutSeconds = 300
        // Likewise a PostgreSQL call: with the suite's many databases on two cores, one can wait past the 15 s default.
        configuration.databaseCallTimeout = .seconds(120)
        if let database {
            configuration.databaseURL = database
        } else if backend == .postgres {
            configuration.databaseURL = try await PostgresCluster.newDatabase()
        }
        adjust(&configuration)
        return try await TestServer(configuration: configuration, ownsDatabase: database == nil)
    }

    private init(configuration: ServerConfiguration, ownsDatabase: Bool) async throws {
        self.ownsDatabase = ownsDatabase
        directory = configuration.dataDirectory
        clock = ManualServerClock()
        var logger = Logger(label: "parley.test-server")
        logger.logLevel = .critical
        databaseURL = configuration.databaseURL
        opened = try await configuration.openStore(logger: logger)
        let context = ServerContext(
            configuration: configuration, store: opened.store, clock: clock,
            random: SystemRandomSource(),
            codeSender: DevelopmentCodeSender(file: configuration.developmentCodesFile, logger: logger), logger: logger,
            backplane: opened.backplane)
        server = try ParleyServer(context: context)
        group = ServiceGroup(services: [server], logger: logger)
        let group = self.group
        runner = Task { try await group.run() }
        port = try await server.boundAddress().port ?? 0
    }

    /// Connects a new plain-TCP client.
    func connect(from source: String? = nil) throws -> LineSocket { try LineSocket(port: port, source: source) }

    /// The newest development verification code for `email`.
    func latestCode(for email: String) throws -> String? {
        ParleyServerTests.latestCode(in: directory.appendingPathComponent("dev-codes.log"), for: email)
    }

    /// Stops the server gracefully and waits for it; its data directory goes too unless `keepingFiles` (the
    /// test then removes it).
    func stop(keepingFiles: Bool = false) async throws {
        await group.triggerGracefulShutdown()
        let result = await runner.result
        await opened.close()
        if let databaseURL, ownsDatabase { await PostgresCluster.dropDatabase(databaseURL) }
        if !keepingFiles { try? FileManager.default.removeItem(at: directory) }
        try result.get()
    }
}
