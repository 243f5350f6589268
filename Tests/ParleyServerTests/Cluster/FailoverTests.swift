import Foundation
import ParleyClient
import ParleyTestSupport
@testable import ParleyServer
import Testing

/// Real `parley server` processes on one PostgreSQL database, real clients, and `kill -9` in the middle of
/// traffic: every message is delivered to the application exactly once (docs/SCALING.md §4).
extension MultiNodeSuites {
    @Suite("Failover between server nodes", .serialized)
    struct FailoverTests {
        /// Three nodes on a fresh database, sharing one data directory (so one dev-codes.log).
        struct Nodes {
            let data: URL
            let url: PostgresURL
            var processes: [ServerProcess]

            static func start() async throws -> Nodes {
                let url = try await PostgresCluster.newDatabase()
                let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-failover-\(UUID().uuidString)")
                // Started one after another: the first migrates, the others find the schema in place.
                var processes: [ServerProcess] = []
                for _ in 0..<3 {
                    let arguments = ["--database", "\(url)", "--metrics", "127.0.0.1:0"]
                    processes.append(try await ServerProcess.start(data: data, extraArguments: arguments))
                }
                return Nodes(data: data, url: url, processes: processes)
            }

            /// Open client connections per node, from each node's own metrics.
            func connections() async -> [Int] {
                var counts: [Int] = []
                for process in processes {
                    guard process.process.isRunning, let port = process.metricsPort,
                        let (_, text) = try? await MetricsTests.get("http://127.0.0.1:\(port)/metrics"),
                        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("parley_connections ") }),
                        let value = Double(line.split(separator: " ").last ?? "")
                    else { counts.append(0); continue }
                    counts.append(Int(value))
                }
                return counts
            }

            /// Runs `body` with three fresh nodes, and stops them (and drops the database) however it ends.
            static func with(_ body: (Nodes) async throws -> Void) async throws {
                let nodes = try await start()
                do {
                    try await body(nodes)
                } catch {
                    await nodes.stop()
                    throw error
                }
                await nodes.stop()
            }

            func stop() async {
                for process in processes where process.process.isRunning { await process.stop(signal: SIGTERM) }
                await PostgresCluster.dropDatabase(url)
                try? FileManager.default.removeItem(at: data)
            }
        }

        /// A signed-up, connected client of `server` whose home is under `nodes.data`.
        func person(_ name: String, server: ServerAddress, nodes: Nodes) async throws -> ParleyClient {
            let email = "\(name)@example.org"
            let client = try ParleyClient.create(
                home: nodes.data.appendingPathComponent("home-\(name)"), email: email, displayName: name, server: server, pin: nil,
                reconnectPolicy: ReconnectPolicy(initial: 0.2, maximum: 1))
            try await client.registration.register(password: "password of \(name)", envelopeIterations: 210_000)
            let code = try #require(latestCode(in: nodes.data.appendingPathComponent("dev-codes.log"), for: email))
            try await client.registration.confirm(code: code)
            try await client.connect()
            return client
        }

        /// Sends `count` numbered messages from `client`, one every `interval`.
        static func traffic(_ client: ParleyClient, prefix: String, count: Int, chat: Int64, interval: Duration) async throws {
            for index in 0..<count {
                _ = try await client.send("\(prefix)-\(index)", to: chat)
                try await Task.sleep(for: interval)
            }
        }

        /// Waits until `reader` holds every text of `writer` exactly once; returns what it holds.
        static func received(by reader: ParleyClient, from writer: Int64, chat: Int64, expected: [String]) async throws -> [String] {
            var texts: [String] = []
            let deadline = ContinuousClock.now + .seconds(90)
            while ContinuousClock.now < deadline {
                texts = try reader.history.messages(in: chat, limit: 1_000).filter { $0.senderID == writer }.map(\.text)
                if Set(texts) == Set(expected) { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            return texts
        }

        @Test("three nodes behind HAProxy: kill -9 of a node mid-traffic loses nothing and duplicates nothing")
        func killNineBehindHAProxy() async throws {
            try await Nodes.with { nodes in try await killNineBehindHAProxy(nodes) }
        }

        func killNineBehindHAProxy(_ nodes: Nodes) async throws {
            let proxy = try await HAProxy.start(nodes: nodes.processes.map(\.port))
            defer { proxy.stop() }
            let front = ServerAddress(host: "127.0.0.1", port: proxy.port)
            let ann = try await person("ann", server: front, nodes: nodes)
            let bob = try await person("bob", server: front, nodes: nodes)
            let chat = try await ann.startConversation(with: "bob@example.org").id
            let annID = try #require(await ann.accountID), bobID = try #require(await bob.accountID)

            let count = 40
            async let annSends: Void = Self.traffic(ann, prefix: "ann", count: count, chat: chat, interval: .milliseconds(50))
            async let bobSends: Void = Self.traffic(bob, prefix: "bob", count: count, chat: chat, interval: .milliseconds(50))
            // Mid-traffic, kill the node holding the most client connections.
            try await Task.sleep(for: .milliseconds(700))
            let before = await nodes.connections()
            let victim = before.indices.max { before[$0] < before[$1] } ?? 0
            #expect(before[victim] >= 1, "the killed node held a client: \(before)")
            await nodes.processes[victim].stop(signal: SIGKILL)
            try await annSends
            try await bobSends

            let annTexts = (0..<count).map { "ann-\($0)" }, bobTexts = (0..<count).map { "bob-\($0)" }
            let atBob = try await Self.received(by: bob, from: annID, chat: chat, expected: annTexts)
            let atAnn = try await Self.received(by: ann, from: bobID, chat: chat, expected: bobTexts)
            #expect(atBob.sorted() == annTexts.sorted(), "each of Ann's messages exactly once at Bob")
            #expect(atAnn.sorted() == bobTexts.sorted(), "each of Bob's messages exactly once at Ann")
            #expect(try await ann.pendingCount() == 0)
            #expect(try await bob.pendingCount() == 0)
            for client in [ann, bob] { await client.disconnect() }
        }

        @Test("a client given every node's address moves to another node when its node is killed, and hears messages there")
        func clientFailsOverWithoutAProxy() async throws {
            try await Nodes.with { nodes in try await clientFailsOverWithoutAProxy(nodes) }
        }

        func clientFailsOverWithoutAProxy(_ nodes: Nodes) async throws {
            let all = try ServerAddress(parsing: nodes.processes.map { "127.0.0.1:\($0.port)" }.joined(separator: ","))
            #expect(all.endpoints.count == 3)
            let ann = try await person("ann", server: all, nodes: nodes)
            // Bob uses the last node only, so he survives the kill of the first.
            let bob = try await person("bob", server: ServerAddress(host: "127.0.0.1", port: nodes.processes[2].port), nodes: nodes)
            let chat = try await ann.startConversation(with: "bob@example.org").id
            let annID = try #require(await ann.accountID)
            #expect(await ann.currentNode.port == nodes.processes[0].port, "the first node answers first")

            await nodes.processes[0].stop(signal: SIGKILL)
            _ = try await ann.send("after the kill", to: chat)
            let received = try await Self.received(by: bob, from: annID, chat: chat, expected: ["after the kill"])
            #expect(received == ["after the kill"])
            #expect(await ann.currentNode.port != nodes.processes[0].port)
            // And Bob's reply reaches Ann on her new node in real time (through the other node's NOTIFY).
            _ = try await bob.send("welcome back", to: chat)
            let bobID = try #require(await bob.accountID)
            #expect(try await Self.received(by: ann, from: bobID, chat: chat, expected: ["welcome back"]) == ["welcome back"])
            for client in [ann, bob] { await client.disconnect() }
        }
    }
}
