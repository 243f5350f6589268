import Foundation
import ParleyTestSupport
@testable import ParleyServer
import Testing

/// The real `parley` binary on PostgreSQL: `--database`, `--check`, and durability across kill -9.
@Suite("parley server on PostgreSQL", .serialized)
struct PostgresServerTests {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-pg-server-\(UUID().uuidString)")

    /// Runs `parley server --check ARGS`; returns the exit status and standard error.
    func check(_ arguments: [String], environment: [String: String] = [:]) async throws -> (Int32, String) {
        let path = data.path
        return try await ServerProcess.runToExit(["server", "--check", "--data", path] + arguments, environment: environment)
    }

    @Test("--check reports an unmigrated database, then passes once the server migrated it")
    func checkDatabase() async throws {
        let url = try await PostgresCluster.newDatabase()
        defer { try? FileManager.default.removeItem(at: data) }
        let (fresh, freshErrors) = try await check(["--dev", "--database", "\(url)"])
        #expect(fresh == 1)
        #expect(freshErrors.contains("lacks \(PostgresMigrations.all.count) migration(s)"), "\(freshErrors)")
        #expect(freshErrors.split(separator: "\n").count == 1)

        let store = try await PostgresStore.connect(url, logger: .init(label: "test"))
        await store.close()
        let (migrated, migratedErrors) = try await check(["--dev"], environment: ["PARLEY_DATABASE_URL": "\(url)"])
        #expect(migrated == 0, "\(migratedErrors)")
        await PostgresCluster.dropDatabase(url)
    }

    @Test("--check gives one line per problem: unreachable database, missing TLS file, no mailer")
    func checkProblems() async throws {
        let missingSocket = "postgres:///nowhere?host=/nonexistent-\(UUID().uuidString)&user=parley&password=hunter2-secret"
        let (status, errors) = try await check(["--database", missingSocket, "--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem"])
        #expect(status == 1)
        let lines = errors.split(separator: "\n")
        #expect(lines.count == 3, "\(errors)")
        #expect(lines.contains { $0.contains("TLS: /nonexistent/cert.pem is not a readable file") })
        #expect(lines.contains { $0.contains("database:") && $0.contains("cannot connect") })
        #expect(lines.contains { $0.contains("mailer:") })
        #expect(!errors.contains("hunter2-secret"))

        let (badURL, badErrors) = try await check(["--dev", "--database", "mysql://x@y/z"])
        #expect(badURL != 0)
        #expect(badErrors.contains("postgres://"))
    }

    @Test("the real binary on PostgreSQL keeps every acknowledged message across kill -9")
    func killNineOnPostgres() async throws {
        let url = try await PostgresCluster.newDatabase()
        defer { try? FileManager.default.removeItem(at: data) }
        var server = try await ServerProcess.start(data: data, extraArguments: ["--database", "\(url)"])
        let ann = TestAccount("ann@example.org")
        let bob = TestAccount("bob@example.org")
        let socket = try LineSocket(port: server.port)
        let codes = data.appendingPathComponent("dev-codes.log")
        try await socket.register(ann) { latestCode(in: codes, for: $0) }
        try await socket.register(bob) { latestCode(in: codes, for: $0) }
        let bobID = try #require(try await socket.login(bob)["account_id"] as? Int)
        let annSocket = try LineSocket(port: server.port)
        #expect(try await annSocket.login(ann)["account_id"] is Int)
        let conversation = try #require(
            try await annSocket.call("create_conversation", ["kind": "direct", "members": [bob.email]])["conversation_id"] as? Int)
        var acknowledged: [Int] = []
        for index in 0..<10 {
            let sent = try await annSocket.call("send_message", [
                "conversation_id": conversation, "client_message_id": "k\(index)",
                "envelopes": [
                    ["account_id": bobID, "device_id": 1, "ciphertext": Data("to-bob:\(index)".utf8).base64EncodedString()],
                ],
            ])
            acknowledged.append(try #require(sent["message_id"] as? Int, "\(sent)"))
        }
        await server.stop(signal: SIGKILL)

        server = try await ServerProcess.start(data: data, extraArguments: ["--database", "\(url)"])
        let again = try LineSocket(port: server.port)
        _ = try await again.login(bob)
        let fetched = try await again.call("get_messages", ["after_ts": 0])
        let ids = try #require(fetched["messages"] as? [[String: Any]]).compactMap { $0["message_id"] as? Int }
        #expect(ids == acknowledged)
        #expect(await server.stop(signal: SIGTERM) == 0)
        await PostgresCluster.dropDatabase(url)
    }

    @Test("with its database gone, the server answers unavailable instead of hanging, and SIGTERM still ends it")
    func databaseGone() async throws {
        let url = try await PostgresCluster.newDatabase()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await ServerProcess.start(data: data, extraArguments: ["--database", "\(url)", "--database-timeout", "5"])
        let ann = TestAccount("ann@example.org")
        let socket = try LineSocket(port: server.port)
        let codes = data.appendingPathComponent("dev-codes.log")
        try await socket.register(ann) { latestCode(in: codes, for: $0) }
        #expect(try await socket.login(ann).ok)

        await PostgresCluster.dropDatabase(url)
        // The pool cannot get a connection any more: the request is answered within the call limit
        // (--database-timeout 5) rather than waiting for ever (LineSocket gives up after 60 s).
        let answer = try await socket.call("list_conversations")
        #expect(answer.errorCode == "unavailable", "\(answer)")
        #expect(!"\(answer)".contains("postgres:"), "the answer names no database URL")

        let status = await server.stop(signal: SIGTERM)  // waits for the exit
        #expect(status == 0, "graceful shutdown finished despite the database being gone")
    }
}
