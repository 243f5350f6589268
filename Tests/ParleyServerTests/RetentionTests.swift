import Foundation
import Logging
@testable import ParleyServer
import ServiceLifecycle
import Testing

/// The retention sweeper in a real server: what clients see after a sweep, its lifecycle, flags and metrics.
@Suite("Retention sweeper")
struct RetentionTests {
    static func sweeper(_ server: TestServer, interval: Duration = .seconds(600)) -> RetentionSweeper {
        var logger = Logger(label: "parley.test-retention")
        logger.logLevel = .critical
        return RetentionSweeper(store: server.opened.store, clock: server.clock, policy: RetentionPolicy(), interval: interval, logger: logger)
    }

    @Test("after the TTL a delivered message is swept: every action on it answers not_found and the connection lives on",
          arguments: StoreBackend.allCases)
    func actionsOnSweptMessage(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let conversation = try await people.directConversation()
        let sent = try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "r1", "envelopes": people.envelopesFromAnn("hello"),
        ])
        let id = try #require(sent["message_id"] as? Int)
        #expect(try await people.bobSocket.call("confirm_delivery", ["message_ids": [id]])["confirmed"] as? Int == 1)
        #expect(try await people.bobSocket.call("react_message", ["message_id": id, "emoji": "👍"]).ok)

        // Within the TTL nothing goes.
        people.server.clock.advance(milliseconds: 29 * RetentionPolicy.day)
        #expect(await Self.sweeper(people.server).sweepOnce()?.messages == 0)
        #expect(try await people.bobSocket.call("pin_message", ["message_id": id, "pinned": true]).ok)

        people.server.clock.advance(milliseconds: 2 * RetentionPolicy.day)
        let report = try #require(await Self.sweeper(people.server).sweepOnce())
        #expect(report.messages == 1 && report.reactions == 1 && report.envelopes == 0, "the message and bob's reaction (his envelope went at delivery)")

        for (socket, method, fields) in [
            (people.bobSocket, "react_message", ["emoji": "👍"]), (people.bobSocket, "pin_message", ["pinned": false]),
            (people.bobSocket, "mark_read", [:]), (people.annSocket, "delete_message", [:]),
            (people.annSocket, "forward_message", ["conversation_id": conversation, "client_message_id": "f1",
                                                   "envelopes": people.envelopesFromAnn("fwd")]),
        ] as [(LineSocket, String, [String: Any])] {
            let answer = try await socket.call(method, fields.merging(["message_id": id]) { $1 })
            #expect(answer.errorCode == "not_found", "\(method): \(answer)")
        }
        let reply = try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "r2", "reply_to": id, "envelopes": people.envelopesFromAnn("re"),
        ])
        #expect(!reply.ok && reply.errorCode != nil, "a reply to a swept message is refused with a clear error")
        #expect((try await people.annSocket.call("get_message_state", ["message_ids": [id]])["messages"] as? [Any])?.isEmpty == true)
        #expect((try await people.annSocket.call("get_pinned_messages", ["conversation_id": conversation])["messages"] as? [Any])?.isEmpty == true)
        #expect((try await people.annSocket.call("get_messages")["messages"] as? [Any])?.isEmpty == true, "the self copy went too")
        #expect(try await people.bobSocket.call("ping").ok)
        try await people.server.stop()
    }

    @Test("a group made, given a picture and deleted keeps nothing of the picture, and nothing at all after the TTL",
          arguments: StoreBackend.allCases)
    func deletedGroupLeavesNothing(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let store = people.server.opened.store
        var groups: [Int] = []
        for round in 0..<3 {
            let made = try await people.annSocket.call("create_conversation", ["kind": "group", "members": [people.bob.email]])
            let group = try #require(made["conversation_id"] as? Int)
            let picture = Data(repeating: UInt8(round), count: 200 * 1024).base64EncodedString()
            #expect(try await people.annSocket.call("update_group_avatar", ["conversation_id": group, "avatar": picture]).ok)
            #expect(try await people.annSocket.call("delete_conversation", ["conversation_id": group]).ok)
            #expect(try await store.avatar(.group(Int64(group))) == nil, "round \(round): the picture went with the group")
            #expect(try await people.annSocket.call("update_group_avatar", ["conversation_id": group, "avatar": picture]).errorCode == "not_found")
            groups.append(group)
        }
        let before = try await store.retainedRowCounts()

        people.server.clock.advance(milliseconds: 29 * RetentionPolicy.day)
        #expect(await Self.sweeper(people.server).sweepOnce()?.conversations == 0, "within the TTL the rows stay")
        people.server.clock.advance(milliseconds: 2 * RetentionPolicy.day)
        let report = try #require(await Self.sweeper(people.server).sweepOnce())
        #expect(report.conversations == 3 && report.memberships == 6)
        let after = try await store.retainedRowCounts()
        #expect(after["conversations"] == (before["conversations"] ?? 0) - 3 && after["members"] == (before["members"] ?? 0) - 6)
        for group in groups {
            #expect(try await people.bobSocket.call("accept_invitation", ["conversation_id": group]).errorCode == "not_found")
            #expect(try await people.annSocket.call("get_group_avatar", ["conversation_id": group]).errorCode == "not_found")
        }
        #expect((try await people.bobSocket.call("list_invitations")["invitations"] as? [Any])?.isEmpty == true)
        let next = try await people.annSocket.call("create_conversation", ["kind": "group", "members": []])
        #expect((next["conversation_id"] as? Int ?? 0) > groups.max() ?? .max, "ids are never used again")
        try await people.server.stop()
    }

    @Test("the sweeper sweeps at start, then waits; a graceful shutdown stops it at once")
    func lifecycle() async throws {
        let server = try await TestServer.start()
        let store = server.opened.store
        let ann = try await Sample.activeAccount(store, "ann@example.org")
        let bob = try await Sample.activeAccount(store, "bob@example.org")
        let conversation = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], now: 1)
        _ = try await store.insertMessage(
            Sample.message(conversation.conversation.id, from: ann, to: [(bob, 1)], clientID: "old"), now: server.clock.now() - 40 * RetentionPolicy.day)

        let sweeper = Self.sweeper(server, interval: .seconds(3_600))
        var logger = Logger(label: "parley.test-retention")
        logger.logLevel = .critical
        let group = ServiceGroup(services: [sweeper], logger: logger)
        let runner = Task { try await group.run() }
        var swept = false
        for _ in 0..<500 where !swept {
            swept = try await store.retainedRowCounts()["messages"] == 0
            if !swept { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(swept, "the first sweep runs when the server starts")
        let stopping = ContinuousClock.now
        await group.triggerGracefulShutdown()
        try await runner.value
        // The wait is an hour: anything near a minute (a loaded machine) still shows it was cut short.
        #expect(ContinuousClock.now - stopping < .seconds(60), "the hour-long wait is cut short")
        try await server.stop()
    }

    @Test("a sweep against an unavailable database reports nothing and throws nothing")
    func unavailableDatabase() async throws {
        try await StoreBackend.postgres.withStore { store in
            await (store as? PostgresStore)?.close()
            var logger = Logger(label: "parley.test-retention")
            logger.logLevel = .critical
            let sweeper = RetentionSweeper(
                store: store, clock: ManualServerClock(), policy: RetentionPolicy(), interval: .seconds(600), logger: logger)
            #expect(await sweeper.sweepOnce() == nil)
        }
    }

    @Test("parley server: --retention-days and --sweep-minutes are documented and checked; sweeps show in the metrics")
    func flagsAndMetrics() async throws {
        let (status, errors) = try await ServerProcess.runToExit(["server", "--dev", "--retention-days", "0"])
        #expect(status != 0 && errors.contains("--retention-days must be 1–3650 days"), "\(errors)")
        let (minutesStatus, minutesErrors) = try await ServerProcess.runToExit(["server", "--dev", "--sweep-minutes", "99999"])
        #expect(minutesStatus != 0 && minutesErrors.contains("--sweep-minutes must be 1–1440 minutes"))

        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-retention-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await ServerProcess.start(data: data, extraArguments: ["--metrics", "127.0.0.1:0", "--retention-days", "7"])
        defer { server.killWithoutWaiting() }
        let base = "http://127.0.0.1:\(try #require(server.metricsPort))"
        var text = ""
        for _ in 0..<250 where !text.contains("parley_retention_sweeps_total 1") {
            text = try await MetricsTests.get(base + "/metrics").1
            if !text.contains("parley_retention_sweeps_total 1") { try await Task.sleep(for: .milliseconds(40)) }
        }
        #expect(text.contains("parley_retention_sweeps_total 1"), "\(text)")
        #expect(text.contains(#"parley_retention_swept_total{kind="messages"} 0"#))
        #expect(text.contains("parley_retention_sweep_duration_seconds_count 1"))
        #expect(await server.stop(signal: SIGTERM) == 0, "a graceful stop with the sweeper running exits 0")
    }
}
