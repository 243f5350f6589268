import Foundation
import ParleyServer
import Testing

/// A connection that ends at any moment — half a line sent, a request unanswered, just logged in — gives back all
/// it held: its place in the connection budget, its partial line, its subscription, and its presence. Real sockets,
/// default limits; the stranger connects from 127.0.0.2.
@Suite("Connections that end at any moment", .serialized)
struct ConnectionEndTests {
    static let stranger = "127.0.0.2"

    @Test("64 connections that vanish mid-line, mid-request or right after logging in give back their places: the address gets all 64 again")
    func vanishedConnectionsFreeTheirPlaces() async throws {
        let server = try await TestServer.start()
        let owner = TestAccount("owner@example.org")
        try await server.createAccount(owner, on: try server.connect())
        let places = ConnectionLimits().maximumConnectionsPerAddress
        for index in 0..<places {
            let socket = try server.connect(from: Self.stranger)
            switch index % 3 {
            case 0: await socket.send(Array(#"{"type":"ping","request_id":""#.utf8) + [UInt8](repeating: 0x61, count: 10_000))
            case 1: await socket.send(Array(#"{"type":"ping","request_id":"gone"}"#.utf8) + [0x0A])
            default: #expect(try await server.login(owner, on: socket)["account_id"] != nil)
            }
            socket.disconnect()
        }
        // The server learns of each close on its own time: wait until the address has every place back.
        var answered = 0
        for _ in 0..<50 {
            var held: [LineSocket] = []
            answered = 0
            for _ in 0..<places {
                let socket = try server.connect(from: Self.stranger)
                held.append(socket)
                guard try await socket.call("ping").ok else { break }
                answered += 1
            }
            held.forEach { $0.disconnect() }
            if answered == places { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(answered == places)
        try await server.stop()
    }

    @Test("a device that logs in and leaves at once, twenty times, ends offline: the next login hears it is not online")
    func loginThenLeaveEndsOffline() async throws {
        let people = try await TwoPeople.start()
        _ = try await people.directConversation()
        people.bobSocket.disconnect()
        _ = try await people.annSocket.nextNotification(named: "user_offline")
        for _ in 0..<20 {
            let socket = try people.server.connect()
            _ = try await people.server.login(people.bob, on: socket)
            socket.disconnect()
        }
        // Presence settles after the last departure; a fresh login of Ann's is told who is online.
        var online: [Int]?
        for _ in 0..<50 {
            let ann = try people.server.connect()
            _ = try await people.server.login(people.ann, on: ann)
            online = try await ann.nextNotification(named: "online_users")["account_ids"] as? [Int]
            ann.disconnect()
            if online == [] { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(online == [])
        try await people.server.stop()
    }
}
