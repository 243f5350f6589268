import Foundation
import Testing

@Suite("Durability and shutdown of the real binary", .serialized)
struct DurabilityTests {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-durable-\(UUID().uuidString)")

    /// Registers from the code log of a server running in another process.
    func register(_ account: TestAccount, on socket: LineSocket) async throws {
        try await socket.register(account) { latestCode(in: data.appendingPathComponent("dev-codes.log"), for: $0) }
    }

    func login(_ account: TestAccount, on socket: LineSocket) async throws -> Int {
        try #require(try await socket.login(account)["account_id"] as? Int)
    }

    /// Ann and Bob registered on `server`, logged in on their own sockets, with a direct conversation.
    func annAndBob(on server: ServerProcess) async throws
        -> (ann: TestAccount, bob: TestAccount, bobSocket: LineSocket, annSocket: LineSocket, annID: Int, bobID: Int, conversation: Int)
    {
        let ann = TestAccount("ann@example.org")
        let bob = TestAccount("bob@example.org")
        let bobSocket = try LineSocket(port: server.port)
        try await register(ann, on: bobSocket)
        try await register(bob, on: bobSocket)
        let bobID = try await login(bob, on: bobSocket)
        let annSocket = try LineSocket(port: server.port)
        let annID = try await login(ann, on: annSocket)
        let conversation = try #require(
            try await annSocket.call("create_conversation", ["kind": "direct", "members": [bob.email]])["conversation_id"] as? Int)
        return (ann, bob, bobSocket, annSocket, annID, bobID, conversation)
    }

    @Test("every acknowledged message survives kill -9 of the server")
    func killNine() async throws {
        var server = try await ServerProcess.start(data: data)
        var (_, bob, bobSocket, annSocket, _, bobID, conversation) = try await annAndBob(on: server)
        var acknowledged: [Int] = []
        for index in 0..<25 {
            let response = try await annSocket.call("send_message", [
                "conversation_id": conversation, "client_message_id": "k\(index)",
                "envelopes": [
                    ["account_id": bobID, "device_id": 1, "ciphertext": Data("c\(index)".utf8).base64EncodedString()],
                ],
            ])
            acknowledged.append(try #require(response["message_id"] as? Int))
        }
        await server.stop(signal: SIGKILL)

        server = try await ServerProcess.start(data: data)
        bobSocket = try LineSocket(port: server.port)
        _ = try await login(bob, on: bobSocket)
        let fetched = try await bobSocket.call("get_messages", ["limit": 500])
        let ids = try #require(fetched["messages"] as? [[String: Any]]).compactMap { $0["message_id"] as? Int }
        #expect(ids == acknowledged)
        #expect(await server.stop(signal: SIGTERM) == 0)
        try? FileManager.default.removeItem(at: data)
    }

    @Test("every acknowledged message survives kill -9 while the write-ahead log is being checkpointed")
    func killNineDuringCheckpoints() async throws {
        // 300 messages of two 12 KiB envelopes write about 2,500 frames to the log: past the threshold where
        // background rounds and the writer's tail copies run (WALCheckpointer), so the kill lands among them.
        let limits = ["--requests-per-second", "100000", "--account-requests-per-second", "100000"]
        var server = try await ServerProcess.start(data: data, extraArguments: limits)
        var (_, bob, bobSocket, annSocket, _, bobID, conversation) = try await annAndBob(on: server)
        let ciphertext = Data(repeating: 0x5A, count: 12 * 1_024).base64EncodedString()
        var acknowledged: [Int] = []
        for index in 0..<300 {
            let response = try await annSocket.call("send_message", [
                "conversation_id": conversation, "client_message_id": "w\(index)",
                "envelopes": [
                    ["account_id": bobID, "device_id": 1, "ciphertext": ciphertext],
                ],
            ])
            acknowledged.append(try #require(response["message_id"] as? Int, "\(response)"))
        }
        await server.stop(signal: SIGKILL)

        server = try await ServerProcess.start(data: data, extraArguments: limits)
        bobSocket = try LineSocket(port: server.port)
        _ = try await login(bob, on: bobSocket)
        var fetched: [Int] = []
        var after = 0
        while true {
            let page = try #require(try await bobSocket.call("get_messages", ["after_ts": after, "limit": 50])["messages"] as? [[String: Any]])
            guard let last = page.last else { break }
            #expect(page.allSatisfy { $0["ciphertext"] as? String == ciphertext })
            fetched += page.compactMap { $0["message_id"] as? Int }
            after = try #require(last["timestamp"] as? Int)
        }
        #expect(fetched == acknowledged)
        #expect(await server.stop(signal: SIGTERM) == 0)
        try? FileManager.default.removeItem(at: data)
    }

    @Test("SIGTERM stops the server with exit status 0")
    func sigterm() async throws {
        let server = try await ServerProcess.start(data: data)
        let socket = try LineSocket(port: server.port)
        #expect(try await socket.call("ping").ok)
        #expect(await server.stop(signal: SIGTERM) == 0)
        #expect(try await socket.readLine() == nil)
        try? FileManager.default.removeItem(at: data)
    }

    @Test("no private key of a registered account ever reaches the server's files")
    func noPlaintextAtRest() async throws {
        let server = try await ServerProcess.start(data: data)
        let (ann, _, _, annSocket, _, bobID, conversation) = try await annAndBob(on: server)
        let ciphertext = Data((0..<64).map { _ in UInt8.random(in: 0...255) })
        #expect(try await annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "p",
            "envelopes": [
                ["account_id": bobID, "device_id": 1, "ciphertext": ciphertext.base64EncodedString()],
            ],
        ]).ok)
        await server.stop(signal: SIGTERM)
        for file in try FileManager.default.contentsOfDirectory(atPath: data.path) {
            let bytes = try Data(contentsOf: data.appendingPathComponent(file))
            #expect(bytes.range(of: ann.identity.rawRepresentation) == nil, "\(file)")
            #expect(bytes.range(of: ann.auth.rawRepresentation) == nil, "\(file)")
        }
        try? FileManager.default.removeItem(at: data)
    }
}
