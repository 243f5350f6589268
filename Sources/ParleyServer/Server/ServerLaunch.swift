import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import ParleyCrypto
import ServiceLifecycle

/// A server run as `parley server` runs it: the data directory made owner-only and locked (one server per
/// SQLite database), the store opened, the server with its retention sweeper and optional metrics endpoint
/// run until SIGTERM or SIGINT, SIGHUP reloading the TLS certificate, and the store closed however it ends.
public enum ServerLaunch {
    /// Why the server could not start, in the user's words.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What went wrong and what to do.
        public let description: String
    }

    /// Runs the server `configuration` describes until a signal stops it. `codeSender` makes the sender of
    /// verification codes for the data directory (it may refuse to start); `announce` gets the lines that say
    /// where the server (and its metrics) listen, once bound.
    public static func run(_ configuration: ServerConfiguration, metrics: (host: String, port: Int)?,
                           codeSender: (URL, Logger) async throws -> any VerificationCodeSender,
                           announce: @escaping @Sendable (String) -> Void) async throws {
        let (host, port) = (configuration.host, configuration.port)
        let directory = configuration.dataDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // One server per SQLite database. (PostgreSQL nodes may share a directory: the database is elsewhere.)
        let lock: DataDirectoryLock?
        do { lock = configuration.databaseURL == nil ? try DataDirectoryLock(directory) : nil } catch { throw Failure(description: "\(error)") }
        defer { lock?.release() }
        var logger = Logger(label: "parley.server")
        logger.logLevel = .info
        let codeSender = try await codeSender(directory, logger)
        // Everything the server writes (database, WAL, code log) is for its owner only.
        umask(0o077)
        let opened = try await configuration.openStore(logger: logger)
        let context = ServerContext(
            configuration: configuration, store: opened.store,
            clock: SystemWallClock(), random: SystemRandomSource(),
            codeSender: codeSender, logger: logger, backplane: opened.backplane)
        let server: ParleyServer
        do {
            server = try ParleyServer(context: context)
        } catch {
            await opened.close()
            throw error
        }
        // After the server, so a graceful shutdown (last service first) stops sweeping before connections drain.
        var services: [any Service] = [server, RetentionSweeper(context: context)]
        var endpoint: MetricsEndpoint?
        if let metrics {
            let bootstrapped = MetricsEndpoint.bootstrapPrometheus(host: metrics.host, port: metrics.port, logger: logger)
            endpoint = bootstrapped
            services.append(bootstrapped)
        }
        let group = ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        let reloads = await HangUpReload.start(server, logger: logger)
        defer { reloads.cancel() }
        let tls = configuration.tlsCertificatePath != nil
        let databaseNote = configuration.databaseURL.map { ", database: \($0)" } ?? ""
        let registration = configuration.registration.rawValue
        Task { [endpoint] in
            let address = try await server.boundAddress()
            announce("parley server listening on \(tls ? "tls" : "tcp")://\(address.ipAddress ?? host):\(address.port ?? port) (data: \(directory.path)\(databaseNote); registration: \(registration))")
            if let endpoint {
                let metricsAddress = try await endpoint.boundAddress()
                announce("metrics at http://\(metricsAddress.ipAddress ?? "?"):\(metricsAddress.port ?? 0)/metrics")
            }
        }
        do {
            try await group.run()
        } catch {
            await opened.close()
            throw error
        }
        await opened.close()
    }
}

extension ServerLaunch {
    /// Who sends verification codes: with `development`, the log and `DATA/dev-codes.log`; else the mailer
    /// `smtp` describes, checked now — a server without one, or with one that cannot deliver, does not start.
    public static func codeSender(development: Bool, smtp: SMTPConfiguration?, directory: URL, logger: Logger) async throws -> any VerificationCodeSender {
        let codeLog = directory.appendingPathComponent("dev-codes.log")
        if development { return DevelopmentCodeSender(file: codeLog, logger: logger) }
        guard let smtp else {
            throw Failure(description: """
                no mailer is configured, so verification codes could not be delivered: give --smtp HOST:PORT \
                --smtp-from ADDRESS (see --help), or run with --dev to receive codes in \(codeLog.path) and the log.
                """)
        }
        do {
            let mailer = try SMTPMailer(configuration: smtp, logger: logger)
            try await mailer.verify()
            logger.info("mailer ready", metadata: ["smtp": "\(smtp)"])
            return mailer
        } catch {
            throw Failure(description: "the mailer \(smtp) cannot deliver: \(error)")
        }
    }
}
