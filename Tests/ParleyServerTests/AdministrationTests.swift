import Foundation
@testable import ParleyServer
import ParleyTestSupport
import ParleyWire
import Testing

/// How `parley server admin` reaches running servers (docs/OPERATIONS.md §8): a SQLite server through its
/// owner-only admin socket, every node of a PostgreSQL cluster through the event channel.
@Suite("Administration of running servers", .serialized)
struct AdministrationTests {
    /// Reads until the server closes the connection; fails if it stays open for `seconds`.
    func expectClosed(_ socket: LineSocket, _ what: String) async throws {
        let started = ContinuousClock.now
        while try await socket.readLine() != nil {}
        #expect(ContinuousClock.now - started < .seconds(5), "\(what) closed late")
    }

    @Test("SQLite: disabling closes every connection of the account at once; the socket is owner-only and ignores garbage")
    func sqliteDisable() async throws {
        let people = try await TwoPeople.start()
        let server = people.server
        let path = server.directory.appendingPathComponent("admin.sock").path
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "\(String(describing: mode))")
        let second = try server.connect()
        #expect(try await server.login(people.ann, on: second)["account_id"] as? Int == people.annID)
        #expect(try await RunningServers.tell([], store: server.opened.store, dataDirectory: server.directory) == .reached(nodes: 1, open: 3, signedIn: 3))

        // Garbage on the admin socket: a clear refusal, nothing happens, the server serves on.
        for garbage in ["hello", "{}", #"{"v":2,"n":"x","e":[]}"#, String(repeating: "x", count: 20_000)] {
            let raw = try await UnixLine.exchange(path: path, garbage)
            #expect(raw.contains(#""ok":false"#), "\(raw)")
        }
        #expect(try await people.annSocket.call("ping").ok)
        // A client that connects and says nothing holds up no other admin request.
        let silent = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(silent) }
        _ = UnixLine.connect(silent, path: path)
        let asked = ContinuousClock.now
        #expect(try await RunningServers.tell([], store: server.opened.store, dataDirectory: server.directory) != .notRunning)
        #expect(ContinuousClock.now - asked < .seconds(5), "answered beside a silent client")

        let annID = Int64(people.annID)
        #expect(try await server.opened.store.setDisabled(accountID: annID, at: server.clock.now()))
        let reach = try await RunningServers.tell([ClusterEvent(accountID: annID, action: .disconnect)], store: server.opened.store, dataDirectory: server.directory)
        #expect(reach != .notRunning)
        try await expectClosed(people.annSocket, "ann's first connection")
        try await expectClosed(second, "ann's second connection")
        #expect(try await people.bobSocket.call("ping").ok, "bob stays")
        let again = try server.connect()
        #expect(try await server.login(people.ann, on: again).errorMessage == "this account is disabled; ask the server's operator")
        try await server.stop(keepingFiles: true)
        #expect(!FileManager.default.fileExists(atPath: path), "a stopped server removes its socket")
        #expect(try await RunningServers.tell([], store: server.opened.store, dataDirectory: server.directory) == .notRunning)
        try? FileManager.default.removeItem(at: server.directory)
    }

    @Test("SQLite: a data directory whose socket path is longer than a Unix socket address allows still gets its admin socket")
    func longDataDirectory() async throws {
        let long = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-server-with-a-rather-long-name-\(UUID().uuidString)/and/deeper/still/data")
        try FileManager.default.createDirectory(at: long, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: long.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()) }
        let path = long.appendingPathComponent("admin.sock").path
        #expect(path.utf8.count > 108, "longer than sockaddr_un holds")
        let server = try await TestServer.start { $0.dataDirectory = long }
        let ann = TestAccount("ann@example.org")
        let socket = try server.connect()
        try await server.createAccount(ann, on: socket)
        let accountID = try #require(try await server.login(ann, on: socket)["account_id"] as? Int)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        let reach = try await RunningServers.tell([], store: server.opened.store, dataDirectory: long)
        #expect(reach == .reached(nodes: 1, open: 1, signedIn: 1), "\(reach)")
        #expect(try await server.opened.store.setDisabled(accountID: Int64(accountID), at: server.clock.now()))
        _ = try await RunningServers.tell([ClusterEvent(accountID: Int64(accountID), action: .disconnect)], store: server.opened.store, dataDirectory: long)
        try await expectClosed(socket, "the disabled account's connection")
        try await server.stop(keepingFiles: true)
        #expect(!FileManager.default.fileExists(atPath: path), "a stopped server removes its socket")
    }

    @Test("PostgreSQL: an event sent on the database's channel closes the account's connections on every node")
    func clusterDisable() async throws {
        let first = try await TestServer.start(backend: .postgres)
        let second = try await TestServer.start(joining: first.databaseURL)
        let ann = TestAccount("ann@example.org"), bob = TestAccount("bob@example.org")
        let onFirst = try first.connect(), onSecond = try second.connect(), bobSocket = try second.connect()
        try await first.createAccount(ann, on: onFirst)
        try await second.createAccount(bob, on: bobSocket)
        let annID = try #require(try await first.login(ann, on: onFirst)["account_id"] as? Int)
        #expect(try await second.login(ann, on: onSecond)["account_id"] as? Int == annID)
        #expect(try await second.login(bob, on: bobSocket).ok)

        // The operator's own connection to the database, as `parley server admin` opens it.
        let admin = try await PostgresStore.connect(try #require(first.databaseURL), logger: .init(label: "admin"), maximumConnections: 2)
        #expect(try await admin.setDisabled(accountID: Int64(annID), at: 1))
        let reach = try await RunningServers.tell([ClusterEvent(accountID: Int64(annID), action: .disconnect)], store: admin, dataDirectory: first.directory)
        guard case .reached(let nodes, nil, _) = reach else { Issue.record("\(reach)"); return }
        #expect(nodes == 2)
        try await expectClosed(onFirst, "ann on node 1")
        try await expectClosed(onSecond, "ann on node 2")
        #expect(try await bobSocket.call("ping").ok)
        let again = try second.connect()
        #expect(try await second.login(ann, on: again).errorCode == "forbidden")
        await admin.close()
        try await second.stop()
        try await first.stop()
    }
}

extension AdministrationTests {
    @Test("the binary against PostgreSQL: accounts list, disable closes connections on both nodes, stats, delete")
    func binaryOnPostgres() async throws {
        let first = try await TestServer.start(backend: .postgres)
        let second = try await TestServer.start(joining: first.databaseURL)
        let ann = TestAccount("ann@example.org"), bob = TestAccount("bob@example.org")
        let onFirst = try first.connect(), onSecond = try second.connect(), bobSocket = try first.connect()
        try await first.createAccount(ann, on: onFirst)
        try await first.createAccount(bob, on: bobSocket)
        #expect(try await first.login(ann, on: onFirst).ok)
        #expect(try await second.login(ann, on: onSecond).ok)
        #expect(try await first.login(bob, on: bobSocket).ok)
        let database = try #require(first.databaseURL).description
        func admin(_ arguments: [String]) async throws -> (Int32, String) {
            try await ServerProcess.runToExitWithOutput(["server", "admin"] + arguments + ["--database", database])
        }

        let (listed, list) = try await admin(["accounts", "list"])
        #expect(listed == 0 && list.contains("1\tactive\tann@example.org") && list.contains("2\tactive\tbob@example.org"), "\(list)")
        // The nodes count their connections as they report them: asked again until all three logins are counted.
        var stats = ""
        for _ in 0..<20 {
            stats = try await admin(["stats"]).1
            if stats.contains("3 signed in on 2 nodes") { break }
            try await Task.sleep(for: .milliseconds(250))
        }
        #expect(stats.contains("accounts:      2") && stats.contains("3 signed in on 2 nodes"), "\(stats)")
        let (disabled, said) = try await admin(["accounts", "disable", "ann@example.org"])
        #expect(disabled == 0 && said.contains("its connections on all 2 server nodes were closed"), "\(said)")
        try await expectClosed(onFirst, "ann on node 1")
        try await expectClosed(onSecond, "ann on node 2")
        #expect(try await second.login(ann, on: try second.connect()).errorMessage == "this account is disabled; ask the server's operator")
        let (again, twice) = try await admin(["accounts", "disable", "1"])
        #expect(again != 0 && twice.contains("disabled already"), "\(twice)")
        let (deleted, gone) = try await admin(["accounts", "delete", "ann@example.org", "--yes"])
        #expect(deleted == 0 && gone.contains("Deleted ann@example.org (account 1)"), "\(gone)")
        #expect(try await AccountTrace.leftovers(first.opened.store, accountID: 1, email: ann.email) == [:])
        #expect(try await bobSocket.call("ping").ok)
        try await second.stop()
        try await first.stop()
    }
}

/// One raw line to a Unix socket and its answer (for feeding the admin socket what no parley sends).
enum UnixLine {
    /// Waits for the answer off the cooperative pool: the server that answers runs in this process, on that pool.
    static func exchange(path: String, _ line: String) async throws -> String {
        try await Blocking.run { try exchangeBlocking(path: path, line) }
    }

    private static func exchangeBlocking(path: String, _ line: String) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        guard connect(fd, path: path) == 0 else { throw LineSocket.Failure(description: "cannot connect to \(path)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            answer += chunk[..<count]
            if answer.contains(0x0A) { break }
        }
        return String(decoding: answer, as: UTF8.self)
    }

    /// Connects `fd` to the Unix socket at `path`; 0 on success.
    static func connect(_ fd: Int32, path: String) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8.prefix(MemoryLayout.size(ofValue: address.sun_path) - 1))
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in pathBytes.enumerated() { buffer[index] = byte }
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
