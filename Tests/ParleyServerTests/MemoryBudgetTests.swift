import Foundation
import ParleyServer
import Testing

/// Issue 20 §1: what one stranger may make the server hold. Attackers connect from 127.0.0.2, honest
/// people from 127.0.0.1 (both loopback on Linux), to a real server with the default limits unless a
/// test is about that limit.
@Suite("Memory budget against a stranger's flood", .serialized)
struct MemoryBudgetTests {
    static let stranger = "127.0.0.2"
    static let padding = [UInt8](repeating: 0x41, count: 120 << 10)

    @Test("the login deadline counts from the accept: a stranger's pings do not keep the connection, a member's stays")
    func loginDeadlineIgnoresPings() async throws {
        // 20 s: the member's own connections must register and log in within it while the whole suite loads the
        // machine (4 s and 8 s were both missed there).
        let server = try await TestServer.start { $0.loginTimeoutSeconds = 20 }
        let owner = TestAccount("owner@example.org")
        try await server.createAccount(owner, on: try server.connect())
        let member = try server.connect()
        #expect(try await server.login(owner, on: member)["account_id"] != nil)
        let socket = try server.connect(from: Self.stranger)
        let start = ContinuousClock.now
        var closedAfter: Duration?
        while ContinuousClock.now - start < .seconds(80) {
            guard try await socket.callIfOpen("ping") else {
                closedAfter = ContinuousClock.now - start
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let after = try #require(closedAfter, "pinging kept the connection open past four times the deadline")
        #expect(after >= .seconds(20) && after < .seconds(40))
        #expect(try await member.call("whoami").ok, "the logged-in connection outlives the deadline")
        try await server.stop()
    }

    @Test("one address gets 64 connections at the defaults; the next is refused and others are unaffected")
    func connectionsPerAddress() async throws {
        let server = try await TestServer.start()
        var held: [LineSocket] = []
        for _ in 0..<ConnectionLimits().maximumConnectionsPerAddress {
            let socket = try server.connect(from: Self.stranger)
            #expect(try await socket.call("ping").ok)
            held.append(socket)
        }
        let refused = try server.connect(from: Self.stranger)
        let answer = try #require(try await refused.readJSON())
        #expect(answer.errorCode == "unavailable")
        #expect(answer.errorMessage?.contains("too many connections from your address") == true)
        #expect(try await refused.readLine() == nil, "closed after saying why")

        let owner = TestAccount("owner@example.org")
        let honest = try server.connect()
        try await server.createAccount(owner, on: honest)
        #expect(try await server.login(owner, on: honest)["account_id"] != nil)

        held.removeLast().disconnect()
        // The server learns of the close on its own time: ask again until it has.
        var freed = false
        for _ in 0..<100 where !freed {
            freed = (try? await server.connect(from: Self.stranger).call("ping").ok) == true
            if !freed { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(freed, "a closed connection frees its place")
        try await server.stop()
    }

    @Test("before login a line may hold 128 KiB; after login the full limit applies")
    func shorterLinesBeforeLogin() async throws {
        let server = try await TestServer.start()
        let stranger = try server.connect(from: Self.stranger)
        await stranger.send([UInt8](repeating: 0x41, count: (128 << 10) + 1))
        #expect(try await stranger.readJSON()?.errorCode == "line_too_long")
        #expect(try await stranger.readLine() == nil)

        let owner = TestAccount("owner@example.org")
        let member = try server.connect()
        try await server.createAccount(owner, on: member)
        #expect(try await server.login(owner, on: member)["account_id"] != nil)
        let big = try await member.call("ping", ["padding": String(repeating: "B", count: 512 << 10)])
        #expect(big.ok)
        try await server.stop()
    }

    @Test("once the partial-line budget is spent a line is refused before more is read; finished lines still pass")
    func partialLineBudget() async throws {
        let server = try await TestServer.start { $0.limits.partialLineBudget = 1 << 20 }
        var holders: [LineSocket] = []
        for _ in 0..<8 {  // 8 × 120 KiB fits in 1 MiB
            let socket = try server.connect(from: Self.stranger)
            #expect(try await socket.call("ping").ok)
            await socket.send(Self.padding)
            holders.append(socket)
        }
        // The server reads each holder's bytes when it gets to them; the ninth must come after all of them.
        let held = 8 * Self.padding.count
        let deadline = ContinuousClock.now + .seconds(30)
        while server.server.unfinishedLineBytes < held, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(server.server.unfinishedLineBytes == held, "every holder's bytes are held before the ninth arrives")
        let refused = try server.connect(from: Self.stranger)
        await refused.send(Self.padding)
        let answer = try #require(try await refused.readJSON())
        #expect(answer.errorCode == "line_too_long")
        #expect(answer.errorMessage?.contains("too many unfinished lines") == true)
        #expect(try await refused.readLine() == nil)

        #expect(try await server.connect().call("ping").ok, "a whole line needs no budget")
        for socket in holders { socket.disconnect() }
        let released = ContinuousClock.now + .seconds(30)
        while server.server.unfinishedLineBytes > 0, ContinuousClock.now < released {
            try await Task.sleep(for: .milliseconds(20))
        }
        let later = try server.connect(from: Self.stranger)
        await later.send(Self.padding + Array(#"{"type":"ping","request_id":"late"}"#.utf8) + [0x0A])
        #expect(try await later.readJSON()?.errorCode == "malformed_json", "the budget came back: the line was read to its end")
        try await server.stop()
    }

    @Test("connections not logged in are limited over all addresses; logging in frees a place")
    func unauthenticatedLimit() async throws {
        let server = try await TestServer.start { $0.limits.maximumUnauthenticatedConnections = 3 }
        let owner = TestAccount("owner@example.org")
        let first = try server.connect()
        try await server.createAccount(owner, on: first)
        let strangers = try (0..<2).map { _ in try server.connect(from: Self.stranger) }
        for socket in strangers { #expect(try await socket.call("ping").ok) }
        let refused = try server.connect(from: Self.stranger)
        #expect(try await refused.readJSON()?.errorCode == "unavailable")

        #expect(try await server.login(owner, on: first)["account_id"] != nil)
        let second = try server.connect()
        #expect(try await server.login(owner, on: second)["account_id"] != nil, "the login freed a place for the owner")
        try await server.stop()
    }

    @Test("a pairing device keeps its connection past the login deadline; one address may pair only a few at once")
    func pairingAllowance() async throws {
        let server = try await TestServer.start { $0.loginTimeoutSeconds = 20 }   // room to register on a loaded machine
        let owner = TestAccount("owner@example.org")
        try await server.createAccount(owner, on: try server.connect())
        let limit = ConnectionLimits().maximumPairingConnectionsPerAddress
        var devices: [LineSocket] = []
        for index in 0..<limit {
            let device = try server.connect(from: Self.stranger)
            let started = try await device.call("pairing_start", Self.pairingFields(owner.email, index))
            #expect(started.ok, "\(started)")
            devices.append(device)
        }
        let refused = try server.connect(from: Self.stranger)
        let answer = try await refused.call("pairing_start", Self.pairingFields(owner.email, limit))
        #expect(answer.errorCode == "rate_limited")
        #expect(answer.errorMessage?.contains("being paired from your address") == true)

        try await Task.sleep(for: .seconds(21))
        #expect(try await devices[0].call("ping").ok, "still open after the login deadline")
        #expect(try await refused.readLine() == nil, "the refused stranger met the login deadline")
        try await server.stop()
    }

    static func pairingFields(_ email: String, _ index: Int) -> [String: Any] {
        ["email": email, "device_name": "tablet \(index)", "ephemeral_key": Data(repeating: UInt8(index + 1), count: 32).base64EncodedString()]
    }
}

extension LineSocket {
    /// Sends a request; false when the server has closed the connection instead of answering.
    func callIfOpen(_ method: String) async throws -> Bool {
        guard await send(Array(#"{"type":"\#(method)","request_id":"o"}"#.utf8) + [0x0A]) else { return false }
        return try await readLine() != nil
    }
}
