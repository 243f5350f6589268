import Foundation
import Logging
@testable import ParleyServer
import ParleyTestSupport
import PostgresNIO
import Testing

/// Two server nodes on one PostgreSQL database: notifications, presence, disconnects and rate limits
/// reach connections on the other node (docs/SCALING.md).
extension MultiNodeSuites {
    @Suite("Server nodes sharing PostgreSQL", .serialized)
    struct ClusterNodesTests {
        /// Node A and node B on one database, Ann connected to A and Bob to B, in a direct conversation.
        struct TwoNodes {
            let a: TestServer
            let b: TestServer
            let ann: TestAccount
            let bob: TestAccount
            let annSocket: LineSocket
            let bobSocket: LineSocket
            let annID: Int
            let bobID: Int
            let conversationID: Int

            static func start(_ adjust: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }) async throws -> TwoNodes {
                let a = try await TestServer.start(backend: .postgres, adjust)
                let b = try await TestServer.start(joining: a.databaseURL, adjust)
                let ann = TestAccount("ann@example.org")
                let bob = TestAccount("bob@example.org")
                let annSocket = try a.connect()
                let bobSocket = try b.connect()
                // Both register on A (its dev-codes.log), then Bob logs in on B.
                try await a.createAccount(ann, on: annSocket)
                let bobRegistration = try a.connect()
                try await a.createAccount(bob, on: bobRegistration)
                bobRegistration.disconnect()
                let annID = try await a.login(ann, on: annSocket)["account_id"] as! Int
                let bobID = try await b.login(bob, on: bobSocket)["account_id"] as! Int
                let created = try await annSocket.call("create_conversation", ["kind": "direct", "members": [bob.email]])
                let conversationID = try #require(created["conversation_id"] as? Int)
                // Bob accepts Ann's message request (on his node): they are contacts.
                #expect(try await bobSocket.call("accept_request", ["conversation_id": conversationID]).ok)
                return TwoNodes(a: a, b: b, ann: ann, bob: bob, annSocket: annSocket, bobSocket: bobSocket, annID: annID, bobID: bobID, conversationID: conversationID)
            }

            func stop() async throws {
                try await b.stop()
                try await a.stop()
            }
        }

        @Test("a message sent on node A is announced to its recipient on node B, who reads it there")
        func messageCrossesNodes() async throws {
            let nodes = try await TwoNodes.start()
            let sent = try await nodes.annSocket.call("send_message", [
                "conversation_id": nodes.conversationID, "client_message_id": "m1",
                "envelopes": [
                    ["account_id": nodes.bobID, "device_id": 1, "ciphertext": Data("to-bob".utf8).base64EncodedString()],
                ],
            ])
            #expect(sent["ok"] as? Bool == true, "\(sent)")
            let note = try await nodes.bobSocket.nextNotification(named: "new_message")
            #expect(note["message_id"] as? Int == sent["message_id"] as? Int)
            #expect(note["conversation_id"] as? Int == nodes.conversationID)
            let fetched = try await nodes.bobSocket.call("get_messages", [:])
            let messages = try #require(fetched["messages"] as? [[String: Any]], "\(fetched)")
            #expect(messages.map { $0["message_id"] as? Int } == [sent["message_id"] as? Int])
            try await nodes.stop()
        }

        @Test("presence is shared: online_users, user_offline and user_online across nodes")
        func presenceCrossesNodes() async throws {
            let nodes = try await TwoNodes.start()
            // Bob's second device connection on B learns that Ann (on A) is online.
            let second = try nodes.b.connect()
            _ = try await nodes.b.login(nodes.bob, on: second)
            let online = try await second.nextNotification(named: "online_users")
            #expect(online["account_ids"] as? [Int] == [nodes.annID])

            nodes.annSocket.disconnect()
            let offline = try await nodes.bobSocket.nextNotification(named: "user_offline")
            #expect(offline["account_id"] as? Int == nodes.annID)

            let back = try nodes.a.connect()
            _ = try await nodes.a.login(nodes.ann, on: back)
            let returned = try await nodes.bobSocket.nextNotification(named: "user_online")
            #expect(returned["account_id"] as? Int == nodes.annID)
            try await nodes.stop()
        }

        @Test("sign_out on node A closes the same device's connection on node B")
        func disconnectCrossesNodes() async throws {
            let nodes = try await TwoNodes.start()
            let annOnB = try nodes.b.connect()
            _ = try await nodes.b.login(nodes.ann, on: annOnB)
            let answer = try await nodes.annSocket.call("sign_out", [:])
            #expect(answer["ok"] as? Bool == true, "\(answer)")
            // The connection on B is drained and closed: reading ends (nil), it does not time out (throw).
            var closed = false
            for _ in 0..<50 {
                guard try await annOnB.readJSON() != nil else { closed = true; break }  // device_removed may come first
            }
            #expect(closed)
            try await nodes.stop()
        }

        @Test("an account's rate limit holds across nodes: one bucket in the database, not one per node")
        func rateLimitShared() async throws {
            // 5 per second, bursts of 10; the test clock stands still, so the bucket never refills.
            let nodes = try await TwoNodes.start { $0.accountRequestsPerSecond = 5 }
            let annOnB = try nodes.b.connect()
            _ = try await nodes.b.login(nodes.ann, on: annOnB)
            var allowed = 0
            var limited = 0
            for round in 0..<30 {
                let socket = round.isMultiple(of: 2) ? nodes.annSocket : annOnB
                let answer = try await socket.call("ping", [:])
                if answer["ok"] as? Bool == true { allowed += 1 } else if answer.errorCode == "rate_limited" { limited += 1 }
            }
            // Of the burst of 10, Ann's create_conversation took one (logins take none); a bucket per node
            // would have allowed 9 on node A and 10 on node B.
            #expect(allowed == 9, "allowed \(allowed)")
            #expect(limited == 21)
            try await nodes.stop()
        }

        @Test("a garbage NOTIFY on the cluster channel is ignored; the nodes keep delivering")
        func hostilePayload() async throws {
            let nodes = try await TwoNodes.start()
            let url = try #require(nodes.a.databaseURL)
            let connection = try await PostgresStore.openConnection(url, logger: Logger(label: "test"))
            for payload in ["garbage", "{\"v\":1,\"n\":\"x\",\"e\":[{\"a\":\(nodes.bobID),\"k\":\"n\"}]}", "{\"v\":9}", ""] {
                try await connection.run("SELECT pg_notify('parley_events', \(payload))", Logger(label: "test"))
            }
            try await connection.close()
            let sent = try await nodes.annSocket.call("send_message", [
                "conversation_id": nodes.conversationID, "client_message_id": "after-garbage",
                "envelopes": [
                    ["account_id": nodes.bobID, "device_id": 1, "ciphertext": Data("x".utf8).base64EncodedString()],
                ],
            ])
            let note = try await nodes.bobSocket.nextNotification(named: "new_message")
            #expect(note["message_id"] as? Int == sent["message_id"] as? Int)
            try await nodes.stop()
        }
    }
}
