import ParleyTestSupport
import Foundation
import ParleyClient
import ParleyCrypto
import ParleyServer
import ParleyVault
import Synchronization

/// A real server on a free loopback port and clients with their own home directories, all signed up.
final class ClientHarness: Sendable {
    let root: URL
    let server: EmbeddedServer

    static func start(_ adjust: (inout ServerConfiguration) -> Void = { _ in }) async throws -> ClientHarness {
        PoolWatch.start()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-client-\(UUID().uuidString)")
        // The server's defaults (rates, budgets, login deadline): a test that is about a limit sets its own.
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"), adjust: adjust)
        return ClientHarness(root: root, server: server)
    }

    private init(root: URL, server: EmbeddedServer) {
        self.root = root
        self.server = server
    }

    var address: ServerAddress { ServerAddress(host: "127.0.0.1", port: server.port) }

    /// The home directory of `name`.
    func home(_ name: String) -> URL { root.appendingPathComponent("home-\(name)") }

    /// Creates, registers, confirms and connects `name@example.org` (or `email`, in the home of `name`).
    func person(
        _ name: String, email: String? = nil, pin: String? = nil, autolockAfter: TimeInterval = 300,
        dependencies: ClientDependencies = ClientDependencies()
    ) async throws -> ParleyClient {
        let email = email ?? "\(name)@example.org"
        let client = try ParleyClient.create(
            home: home(name), email: email, displayName: name.capitalized, server: address, pin: pin,
            autolockAfter: autolockAfter, dependencies: dependencies, reconnectPolicy: ReconnectPolicy(initial: 0.2, maximum: 1))
        try await client.registration.register(password: "correct horse \(name)", envelopeIterations: KeyEnvelope.minimumSealIterations)
        guard let code = server.latestCode(for: email) else { throw HarnessError("no code for \(email)") }
        try await client.registration.confirm(code: code)
        try await client.connect()
        return client
    }

    func stop() async throws {
        try await server.stop()
        try? FileManager.default.removeItem(at: root)
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Waits until `condition` holds, polling; fails after `seconds` (generous: the whole suite shares two cores,
/// and a condition that holds returns at once).
func eventually(_ what: String, seconds: Double = 60, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw HarnessError("timed out waiting for \(what)")
}

/// A vault clock that moves only when a test says so, so autolock tests do not depend on machine load.
final class ManualVaultClock: VaultClock {
    private let times = Mutex<(wall: TimeInterval, monotonic: TimeInterval)>((1_800_000_000, 1_000))
    var wallClock: TimeInterval { times.withLock { $0.wall } }
    var monotonic: TimeInterval { times.withLock { $0.monotonic } }

    /// Both clocks move forward together.
    func advance(_ seconds: TimeInterval) { times.withLock { $0.wall += seconds; $0.monotonic += seconds } }
    /// Only the wall clock moves (someone set the system time).
    func setWall(by seconds: TimeInterval) { times.withLock { $0.wall += seconds } }
}

extension EmbeddedServer {
    /// Starts a server on `port` again after a stop. Under a loaded machine the port can be briefly taken (by an
    /// outgoing connection's ephemeral port, say), so this retries for up to 60 s and, if it never binds, says
    /// which sockets held the port.
    static func restart(dataDirectory: URL, port: Int) async throws -> EmbeddedServer {
        var lastError: (any Error)?
        for _ in 0..<120 {
            do {
                return try await EmbeddedServer.start(dataDirectory: dataDirectory, port: port)
            } catch {
                lastError = error
                try await Task.sleep(for: .milliseconds(500))
            }
        }
        let holders = (try? Self.sockets(on: port)) ?? "(ss failed)"
        throw HarnessError("the server could not restart on port \(port): \(lastError.map { "\($0)" } ?? ""); sockets on it:\n\(holders)")
    }

    private static func sockets(on port: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ss")
        process.arguments = ["-tanp", "( sport = :\(port) or dport = :\(port) )"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try ProcessLaunch.start(process)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
