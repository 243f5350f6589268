import ArgumentParser
import Foundation
import Logging
import ParleyServer

extension Parley {
    /// `parley server`: run the store-and-forward server.
    struct Server: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "server",
            abstract: "Run a Parley server (it stores only ciphertext and public keys).",
            discussion: """
                Ctrl-C or SIGTERM stops accepting connections, answers the requests in flight, and exits 0. \
                'parley server admin' holds the operator's commands (invites, accounts, devices, stats); 'backup' \
                and 'restore' copy the SQLite database.
                """,
            subcommands: [Admin.self, Backup.self, Restore.self]
        )

        @Option(help: ArgumentHelp(
            "A YAML file of settings: each key an option's long name, each value what follows it (docs/OPERATIONS.md §11).",
            discussion: "Also PARLEY_SERVER_CONFIG. PARLEY_SERVER_<OPTION> variables override the file, and the command line overrides both.",
            valueName: "file"))
        var config: String?

        @Option(help: "Address to listen on, HOST:PORT ([::1]:PORT for IPv6).")
        var listen = "127.0.0.1:7433"

        @OptionGroup var storage: StorageOptions
        var data: String { storage.data }

        @Option(help: "PEM certificate chain; with --tls-key turns on TLS.")
        var tlsCert: String?

        @Option(help: "PEM private key for --tls-cert.")
        var tlsKey: String?

        @Flag(help: "Development mode: verification codes go to the log and DATA/dev-codes.log instead of e-mail.")
        var dev = false

        @Option(help: ArgumentHelp(
            "Who may create an account: open, invite or closed.",
            discussion: "Defaults to invite (codes from 'parley server admin invites create'), and to open with --dev."))
        var registration: RegistrationMode?

        @OptionGroup(title: "E-mail (verification codes, unless --dev)") var smtp: SMTPOptions

        @Option(help: "Longest request line in bytes.")
        var maxLine = 1 << 20

        @Option(help: "Seconds from accepting a connection to its login; then it is closed, whatever it sends.")
        var loginTimeout: Int64 = 30

        @OptionGroup(title: "Memory budget (docs/OPERATIONS.md §6)") var limits: ServerLimitOptions

        var database: String? { storage.database }

        @Option(help: ArgumentHelp(
            "Seconds one PostgreSQL call may take before the request is answered 'unavailable' (1–600).",
            discussion: "The time includes waiting for a pooled connection; it keeps requests and shutdown from hanging when the database is gone."))
        var databaseTimeout: Int64 = 15

        @Option(help: ArgumentHelp(
            "Serve Prometheus metrics at http://HOST:PORT/metrics (loopback or an operations network only).",
            valueName: "host:port"))
        var metrics: String?

        @Option(help: ArgumentHelp(
            "Days messages, their ciphertexts and reactions, finished uploads and location waypoints are kept (1–3650).",
            discussion: "Delivered ciphertexts go at once; uploads still incomplete after 24 hours go too (docs/OPERATIONS.md §5)."))
        var retentionDays: Int64 = 30

        @Option(help: "Minutes between retention sweeps (1–1440).")
        var sweepMinutes: Int64 = 10

        @Option(help: "Requests per second one connection may make, bursts of twice that.")
        var requestsPerSecond = 50.0

        @Option(help: "Requests per second one account may make over all its connections (and nodes), bursts of twice that.")
        var accountRequestsPerSecond = 100.0

        @Option(help: "Registrations per minute (per node) above which register asks for proof of work.")
        var registrationsPerMinute = 30

        @Flag(help: "Check the configuration (TLS files, data directory, database reachable and migrated), print one line per problem, and exit 0 or 1.")
        var check = false

        @Flag(help: "Print the settings the server would run with, as the YAML of --config, and exit.")
        var printConfig = false

        func validate() throws {
            guard (1...3600).contains(loginTimeout) else { throw ValidationError("--login-timeout must be 1–3600 seconds") }
            if let metrics { _ = try ListenAddress.validated(metrics) }
            guard (1...3650).contains(retentionDays) else { throw ValidationError("--retention-days must be 1–3650 days") }
            guard (1...1440).contains(sweepMinutes) else { throw ValidationError("--sweep-minutes must be 1–1440 minutes") }
            guard (1...600).contains(databaseTimeout) else { throw ValidationError("--database-timeout must be 1–600 seconds") }
            guard requestsPerSecond >= 1, accountRequestsPerSecond >= 1, registrationsPerMinute >= 1 else {
                throw ValidationError("--requests-per-second, --account-requests-per-second and --registrations-per-minute must be at least 1")
            }
        }

        /// The configuration the flags (and `PARLEY_DATABASE_URL`) describe.
        func serverConfiguration() throws -> ServerConfiguration {
            let (host, port) = try ListenAddress.validated(listen)
            var configuration = ServerConfiguration(
                host: host, port: port, dataDirectory: URL(fileURLWithPath: data, isDirectory: true), tlsCertificatePath: tlsCert,
                tlsKeyPath: tlsKey, development: dev, maximumLineLength: maxLine, loginTimeoutSeconds: loginTimeout)
            configuration.retention = RetentionPolicy(days: retentionDays)
            configuration.limits = limits.limits
            configuration.retentionSweepInterval = .seconds(sweepMinutes * 60)
            configuration.databaseCallTimeout = .seconds(databaseTimeout)
            configuration.requestsPerSecond = requestsPerSecond
            configuration.accountRequestsPerSecond = accountRequestsPerSecond
            configuration.registrationSurgeThreshold = registrationsPerMinute
            if let registration { configuration.registration = registration }
            if let text = database ?? ProcessInfo.processInfo.environment["PARLEY_DATABASE_URL"], !text.isEmpty {
                do {
                    configuration.databaseURL = try PostgresURL(text)
                } catch .unavailable(let why) {
                    throw ValidationError("--database: \(why)")
                } catch {
                    throw ValidationError("--database: \(error)")
                }
            }
            return configuration
        }

        func run() async throws {
            if printConfig { return FileHandle.standardOutput.write(Data(printedSettings().utf8)) }
            if check { return try await runCheck() }
            let configuration = try serverConfiguration()
            let metricsAddress = try metrics.map { text in try ListenAddress.validated(text) }.map { (host: $0.0, port: $0.1) }
            try await ServerLaunch.run(configuration, metrics: metricsAddress, codeSender: { directory, logger in
                try await Self.codeSender(dev: dev, smtp: smtp, directory: directory, logger: logger)
            }, announce: { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            })
        }

        /// `--check`: one line per problem on standard error, exit status 1 if there is any.
        func runCheck() async throws {
            let configuration = try serverConfiguration()
            var logger = Logger(label: "parley.server-check")
            logger.logLevel = .critical
            var problems = await ServerCheck.problems(configuration, logger: logger)
            if !dev {
                do {
                    _ = try await Self.codeSender(dev: false, smtp: smtp, directory: configuration.dataDirectory, logger: logger)
                } catch {
                    problems.append("mailer: \(error)")
                }
            }
            guard problems.isEmpty else {
                for problem in problems { FileHandle.standardError.write(Data("parley server --check: \(problem)\n".utf8)) }
                throw ExitCode.failure
            }
            FileHandle.standardOutput.write(Data("parley server --check: configuration OK\n".utf8))
        }

        /// Development codes, or the mailer `--smtp` describes, checked now (ParleyServer's `ServerLaunch.codeSender`).
        static func codeSender(dev: Bool, smtp: SMTPOptions, directory: URL, logger: Logger) async throws -> any VerificationCodeSender {
            try await ServerLaunch.codeSender(development: dev, smtp: dev ? nil : try smtp.configuration(), directory: directory, logger: logger)
        }
    }
}

extension ListenAddress {
    /// `parse`, its refusal shown as a usage mistake.
    static func validated(_ text: String) throws -> (String, Int) {
        do { return try parse(text) } catch { throw ValidationError(error.description) }
    }
}
