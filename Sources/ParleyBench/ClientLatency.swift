import Foundation
import ParleyClient
import ParleyCrypto
import ParleyServer

/// `parley bench client`'s run: an embedded server and two clients; prints send → decrypted latency, cold start
/// with a long history, and search time.
public struct ClientLatency: Sendable {
    /// Messages timed one at a time.
    public var messages: Int
    /// Messages in the history for the cold-start figure.
    public var history: Int
    /// The server's `--push-limit`: 0 makes every `new_message` a hint the client must fetch on (the old way).
    public var pushLimit: Int

    /// A run timing `messages` messages over a `history`-message history.
    public init(messages: Int, history: Int, pushLimit: Int = ConnectionLimits().pushedEnvelopeLimit) {
        self.messages = messages
        self.history = history
        self.pushLimit = pushLimit
    }

    /// A step of the run that did not happen (printed as the command's error).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the measurement and prints the figures to standard output.
    public func run() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server")) {
            $0.requestsPerSecond = 1_000_000
            $0.accountRequestsPerSecond = 1_000_000
            $0.limits.pushedEnvelopeLimit = pushLimit
        }
        func person(_ name: String) async throws -> ParleyClient {
            let client = try ParleyClient.create(
                home: root.appendingPathComponent(name), email: "\(name)@example.org", displayName: name,
                server: ServerAddress(host: "127.0.0.1", port: server.port), pin: nil)
            try await client.registration.register(password: "bench password \(name)", envelopeIterations: KeyEnvelope.minimumSealIterations)
            try await client.registration.confirm(code: server.latestCode(for: "\(name)@example.org") ?? "")
            try await client.connect()
            return client
        }
        let ann = try await person("ann"), bob = try await person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let events = bob.events()
        var iterator = events.makeAsyncIterator()
        var latencies: [Double] = []
        for index in 0..<(messages + 20) {
            let start = DispatchTime.now().uptimeNanoseconds
            guard let sent = try await ann.send("latency probe \(index)", to: chat.id).message else { throw Failure(description: "not sent") }
            while let event = await iterator.next() {
                if case .message(let message) = event, message.id == sent.id { break }
            }
            if index >= 20 { latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
        }
        latencies.sort()
        func quantile(_ q: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * q))] }
        print(String(format: "send → peer decrypted (%d messages, one at a time): p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                     latencies.count, quantile(0.5), quantile(0.99), latencies.last ?? 0))

        let fillStart = Date()
        let existing = try bob.history.messages(in: chat.id, limit: .max).count
        for index in existing..<max(existing, history) { _ = try await ann.send("history message \(index) with some ordinary words", to: chat.id) }
        _ = try await bob.sync()
        // Closed, not only disconnected: the cold start below opens bob's account again, and an open client holds
        // its lock until it is released (which a debug build does later than a release build).
        await bob.close()
        await ann.disconnect()
        print(String(format: "filled a %d-message history in %.1f s", history, Date().timeIntervalSince(fillStart)))

        let coldStart = DispatchTime.now().uptimeNanoseconds
        let reopened = try ParleyClient.open(home: root.appendingPathComponent("bob"), email: "bob@example.org", pin: nil)
        let newest = try reopened.history.messages(in: chat.id, limit: 50)
        let offline = Double(DispatchTime.now().uptimeNanoseconds - coldStart) / 1e6
        try await reopened.connect(reconnect: false)
        let online = Double(DispatchTime.now().uptimeNanoseconds - coldStart) / 1e6
        let searchStart = DispatchTime.now().uptimeNanoseconds
        let found = try reopened.history.search("ordinary words 9999")
        let search = Double(DispatchTime.now().uptimeNanoseconds - searchStart) / 1e6
        print(String(format: "cold start with %d messages: open + newest %d shown %.1f ms; + connect, login, catch-up %.1f ms",
                     history, newest.count, offline, online))
        print(String(format: "search over the history: %.1f ms (%d hits)", search, found.count))
        await reopened.disconnect()
        try await server.stop()
    }
}
