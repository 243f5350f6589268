import Foundation
import ParleyServer
import Testing

/// Accounts made the way a user makes them: `parley account register` and `confirm` with the code the
/// embedded server logged.
enum CLIAccounts {
    static let environment = ["PARLEY_PASSWORD": "a long enough password"]

    /// Registers and confirms `name@example.org` in `home`.
    static func register(_ name: String, home: URL, server: EmbeddedServer) async throws {
        let email = "\(name)@example.org"
        let registered = try await ParleyBinary.runDetached(
            ["account", "register", "--home", home.path, "--email", email, "--name", name, "--server", "127.0.0.1:\(server.port)"],
            environment: environment)
        #expect(registered.status == 0, "\(registered.stderr)")
        #expect(registered.stdout.contains("parley account confirm CODE"))
        let code = try #require(server.latestCode(for: email))
        let confirmed = try await ParleyBinary.runDetached(["account", "confirm", "--home", home.path, code])
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        #expect(confirmed.stdout.contains("Confirmed: \(email)"))
    }

    /// The person at `home` accepts message request `conversation`, as someone who knows its sender would
    /// (`parley requests accept`): a stranger's first message waits for that (docs/CLIENT.md §12).
    static func accept(request conversation: Int, home: URL) async throws {
        let accepted = try await ParleyBinary.runDetached(["requests", "accept", "--home", home.path, String(conversation)])
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }
}

/// A default server in a scratch directory and people registered on it with the binary, each with a home.
struct CLIScene {
    let root: URL
    let server: EmbeddedServer
    private let homes: [String: URL]

    /// Starts the server (its default limits) and registers `people` (`NAME@example.org`, display name NAME).
    static func start(
        _ label: String, people: [String], _ adjust: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> CLIScene {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-\(label)-\(UUID().uuidString)")
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"), adjust: adjust)
        var homes: [String: URL] = [:]
        for name in people {
            homes[name] = root.appendingPathComponent(name)
            try await CLIAccounts.register(name, home: homes[name]!, server: server)
        }
        return CLIScene(root: root, server: server, homes: homes)
    }

    /// The home of someone registered at the start.
    func home(_ name: String) -> URL { homes[name] ?? root.appendingPathComponent(name) }

    /// Runs `parley ARGUMENTS` detached.
    func run(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) async throws -> ParleyBinary.Result {
        try await ParleyBinary.runDetached(arguments, stdin: stdin, environment: environment)
    }

    /// Stops the server and removes everything.
    func finish() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try await server.stop()
    }
}
