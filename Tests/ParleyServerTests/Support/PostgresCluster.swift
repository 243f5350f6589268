import Foundation
import ParleyTestSupport
#if canImport(Glibc)
import Glibc
#endif
import ParleyServer

/// A throwaway PostgreSQL cluster for this test process: started on first use, listening only on a unix
/// socket in its own fresh temporary directory, stopped when the process exits.
///
/// The machine and CI run as root and initdb refuses root, so the cluster runs as the unprivileged
/// `postgres` system user. A cluster left behind by a crashed run is stopped and removed at the next start.
final class PostgresCluster: Sendable {
    /// The cluster's directory: `data/`, the socket, `server.log`, and `owner.pid`.
    let directory: String
    let binaries: String

    /// The one cluster of this process.
    /// (initdb and pg_ctl take seconds: they run off the cooperative pool, see `Blocking`.)
    static let shared = Task { try await Blocking.run { try PostgresCluster.start() } }

    /// A fresh, empty database on the shared cluster.
    static func newDatabase() async throws -> PostgresURL {
        let cluster = try await shared.value
        return try await Blocking.run { try cluster.createDatabase() }
    }

    /// Drops a database made by `newDatabase` (its connections must be closed).
    static func dropDatabase(_ url: PostgresURL) async {
        guard let cluster = try? await shared.value else { return }
        _ = try? await Blocking.run { try cluster.psql("DROP DATABASE IF EXISTS \(url.database) WITH (FORCE)") }
    }

    private init(directory: String, binaries: String) {
        self.directory = directory
        self.binaries = binaries
    }

    private static func start() throws -> PostgresCluster {
        let binaries = try findBinaries()
        let runAsPostgres = getuid() == 0
        if runAsPostgres { try ensurePostgresUser() }
        removeStaleClusters(binaries: binaries)
        let directory = "/tmp/parley-pg-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try String(getpid()).write(toFile: directory + "/owner.pid", atomically: true, encoding: .utf8)
        if runAsPostgres { try run("/bin/chown", ["-R", "postgres:postgres", directory]) }
        let cluster = PostgresCluster(directory: directory, binaries: binaries)
        try cluster.asOwner("initdb", ["-D", directory + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"])
        let options = [
            "-c listen_addresses=''", "-k \(directory)", "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off",
            "-c max_connections=300", "-p 5432",
        ].joined(separator: " ")
        try cluster.asOwner("pg_ctl", ["-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "-o", options, "start"])
        Self.current = directory + "|" + binaries
        atexit { PostgresCluster.stopCurrent() }
        return cluster
    }

    /// What `atexit` needs, readable from a C callback that cannot capture anything.
    nonisolated(unsafe) private static var current: String?

    private static func stopCurrent() {
        guard let parts = current?.split(separator: "|").map(String.init), parts.count == 2 else { return }
        stop(directory: parts[0], binaries: parts[1])
    }

    private static func stop(directory: String, binaries: String) {
        let cluster = PostgresCluster(directory: directory, binaries: binaries)
        _ = try? cluster.asOwner("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Clusters whose owning test process is gone (a crash, a kill -9) are stopped and deleted.
    private static func removeStaleClusters(binaries: String) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for entry in entries where entry.hasPrefix("parley-pg-") {
            let directory = "/tmp/" + entry
            let owner = (try? String(contentsOfFile: directory + "/owner.pid", encoding: .utf8)).flatMap { Int32($0) }
            if let owner, kill(owner, 0) == 0 || errno != ESRCH { continue }
            stop(directory: directory, binaries: binaries)
        }
    }

    private static func findBinaries() throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let bin = "/usr/lib/postgresql/\(version)/bin"
            if FileManager.default.isExecutableFile(atPath: bin + "/initdb") { return bin }
        }
        throw LineSocket.Failure(description: "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run scripts/install-test-tools")
    }

    private static func ensurePostgresUser() throws {
        if getpwnam("postgres") != nil { return }
        try run("/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"])
    }

    func createDatabase() throws -> PostgresURL {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try psql("CREATE DATABASE \(name)")
        return try PostgresURL("postgres:///\(name)?host=\(directory)&user=postgres")
    }

    /// The documented backup (docs/OPERATIONS.md §10): `pg_dump --format=custom` of a database to `file`.
    static func dump(_ url: PostgresURL, to file: String) async throws {
        let cluster = try await shared.value
        try await Blocking.run { _ = try Self.run(cluster.binaries + "/pg_dump", ["--format=custom", "-h", cluster.directory, "-U", "postgres", "-f", file, url.database]) }
    }

    /// …and its restore: `pg_restore --no-owner` into a new, empty database.
    static func restore(_ file: String, into url: PostgresURL) async throws {
        let cluster = try await shared.value
        try await Blocking.run { _ = try Self.run(cluster.binaries + "/pg_restore", ["--no-owner", "--exit-on-error", "-h", cluster.directory, "-U", "postgres", "-d", url.database, file]) }
    }

    @discardableResult
    func psql(_ sql: String) throws -> String {
        try Self.run(binaries + "/psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", directory, "-U", "postgres", "-d", "postgres", "-c", sql])
    }

    /// Runs a PostgreSQL program as the cluster's owner: `postgres` when we are root, else ourselves.
    @discardableResult
    private func asOwner(_ program: String, _ arguments: [String]) throws -> String {
        if getuid() == 0 {
            return try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", binaries + "/" + program] + arguments)
        }
        return try Self.run(binaries + "/" + program, arguments)
    }

    /// Runs a program to completion with posix_spawn and waitpid, its output in a temporary file.
    ///
    /// Not Foundation's `Process`: its `waitUntilExit` was seen never returning after `pg_ctl start`
    /// (the runuser child stayed an unreaped zombie), and this runs before any test can proceed.
    @discardableResult
    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let outputPath = "/tmp/parley-pg-output-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        SpawnActions.closeInheritedDescriptors(&actions)  // no test server's socket goes along
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw LineSocket.Failure(description: "cannot start \(executable): error \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS are macros Swift cannot import: exited normally with code 0.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw LineSocket.Failure(description: "\((executable as NSString).lastPathComponent) failed (\(status)): \(text.suffix(600))")
        }
        return text
    }
}
