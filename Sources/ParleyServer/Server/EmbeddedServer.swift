import Foundation
import Logging
import ParleyCrypto
import ServiceLifecycle

/// A development-mode server running inside this process, for `parley demo`, benchmarks and tests.
///
/// Verification codes go to `dev-codes.log` in the data directory (never use this in production).
public final class EmbeddedServer: Sendable {
    /// The data directory (SQLite database, dev-codes.log).
    public let dataDirectory: URL
    /// The bound TCP port.
    public let port: Int
    private let group: ServiceGroup
    private let runner: Task<Void, any Error>
    private let lock: DataDirectoryLock
    private let store: SQLiteStore

    /// Starts a server on 127.0.0.1 (`port` 0 picks a free one); `adjust` may change limits.
    public static func start(
        dataDirectory: URL, port: Int = 0, logLevel: Logger.Level = .error,
        adjust: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> EmbeddedServer {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let lock = try DataDirectoryLock(dataDirectory)
        var configuration = ServerConfiguration(host: "127.0.0.1", port: port, dataDirectory: dataDirectory, development: true)
        adjust(&configuration)
        var logger = Logger(label: "parley.embedded-server")
        logger.logLevel = logLevel
        let store = try SQLiteStore(path: configuration.databasePath)
        let context = ServerContext(
            configuration: configuration, store: store, clock: SystemWallClock(),
            random: SystemRandomSource(),
            codeSender: DevelopmentCodeSender(file: configuration.developmentCodesFile, logger: logger), logger: logger)
        let server = try ParleyServer(context: context)
        let group = ServiceGroup(services: [server], logger: logger)
        let runner = Task { try await group.run() }
        let bound = try await server.boundAddress().port ?? port
        return EmbeddedServer(dataDirectory: dataDirectory, port: bound, group: group, runner: runner, lock: lock, store: store)
    }

    private init(dataDirectory: URL, port: Int, group: ServiceGroup, runner: Task<Void, any Error>, lock: DataDirectoryLock, store: SQLiteStore) {
        self.lock = lock
        self.store = store
        self.dataDirectory = dataDirectory
        self.port = port
        self.group = group
        self.runner = runner
    }

    /// The newest development verification code sent to `email`.
    public func latestCode(for email: String) -> String? {
        let file = dataDirectory.appendingPathComponent("dev-codes.log")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").last { $0.hasPrefix("\(email.lowercased()) ") }.map { String($0.split(separator: " ")[1]) }
    }

    /// The SQLite database file.
    public var databasePath: String { dataDirectory.appendingPathComponent("parley.sqlite").path }

    /// Stops gracefully (in-flight requests finish, connections close) and waits.
    public func stop() async throws {
        await group.triggerGracefulShutdown()
        defer { lock.release() }
        try await runner.value
        await store.close()
    }
}
