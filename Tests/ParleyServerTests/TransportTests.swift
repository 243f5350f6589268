import Foundation
import Glibc
import Synchronization
import Testing

@Suite("Server transport over a real socket", .serialized)
struct TransportTests {
    @Test("ping answers with the request id echoed")
    func ping() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let response = try await socket.call("ping")
        #expect(response.ok)
        #expect(response["request_id"] as? String == "t1")
        #expect(response["type"] as? String == "response")
        try await server.stop()
    }

    @Test("garbage, unknown methods and bad fields get precise errors and the connection stays usable")
    func malformedInput() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let cases: [(bytes: String, code: String)] = [
            ("this is not json", "malformed_json"),
            ("{\"type\":\"ping\"", "malformed_json"),
            ("[1,2,3]", "invalid_request"),
            ("{\"type\":\"ping\"}", "invalid_request"),
            ("{\"type\":\"no_such_method\",\"request_id\":\"x\"}", "unknown_method"),
            ("{\"type\":\"login_start\",\"request_id\":\"x\"}", "missing_field"),
            ("{\"type\":\"login_start\",\"request_id\":\"x\",\"email\":5,\"device_id\":1}", "invalid_field"),
            ("{\"type\":\"login_start\",\"request_id\":\"x\",\"email\":\"a@b.c\",\"device_id\":\"one\"}", "invalid_field"),
            ("{\"type\":\"whoami\",\"request_id\":\"x\"}", "unauthenticated"),
            // NUL (PostgreSQL refuses it, SQLite cuts at it) never reaches a handler or a store.
            ("{\"type\":\"recovery_start\",\"request_id\":\"x\",\"email\":\"ann@example.org\\u0000evil\"}", "invalid_request"),
        ]
        for (line, code) in cases {
            await socket.send(Array(line.utf8) + [0x0A])
            let response = try #require(try await socket.readJSON())
            #expect(response.errorCode == code, "\(line)")
            #expect(response.ok == false)
        }
        await socket.send([0xFF, 0xFE, 0x00, 0x0A])
        #expect(try await socket.readJSON()?.errorCode == "malformed_json")
        await socket.send(Array("\n\r\n".utf8))
        #expect(try await socket.call("ping").ok)
        try await server.stop()
    }

    @Test("a request of more JSON values than the budget gets invalid_request, and the connection stays usable")
    func tooManyValues() async throws {
        // 100,000 values in 200 KB: within the default line limit once logged in (128 KiB before login holds at most
        // 65,536), 1.6–2.4 MB once parsed without the budget.
        let server = try await TestServer.start()
        let socket = try server.connect()
        let ann = TestAccount("ann@example.org")
        try await server.createAccount(ann, on: socket)
        #expect(try await server.login(ann, on: socket)["ok"] as? Bool == true)
        let response = try await socket.call("ping", ["pad": [Int](repeating: 0, count: 100_000)])
        #expect(response.errorCode == "invalid_request", "\(response)")
        #expect(response.errorMessage == "a request may hold at most 65536 JSON values")
        #expect(response.ok == false)
        #expect(try await socket.call("ping").ok)
        try await server.stop()
    }

    @Test("a line over the limit gets line_too_long, the connection closes, others are unaffected")
    func oversizeLine() async throws {
        let server = try await TestServer.start { $0.maximumLineLength = 4096 }
        let bystander = try server.connect()
        let socket = try server.connect()
        await socket.send([UInt8](repeating: 0x41, count: 4097))
        let response = try #require(try await socket.readJSON())
        #expect(response.errorCode == "line_too_long")
        #expect(try await socket.readLine() == nil)
        #expect(try await bystander.call("ping").ok)
        try await server.stop()
    }

    @Test("a line arriving one byte at a time is handled like any other")
    func trickle() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        for byte in Array("{\"type\":\"ping\",\"request_id\":\"slow\"}\n".utf8) {
            await socket.send([byte])
        }
        #expect(try await socket.readJSON()?["request_id"] as? String == "slow")
        try await server.stop()
    }

    @Test("pipelined requests are all answered, in order")
    func pipelining() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let lines = (1...200).map { "{\"type\":\"ping\",\"request_id\":\"p\($0)\"}\n" }.joined()
        await socket.send(Array(lines.utf8))
        for index in 1...200 {
            #expect(try await socket.readJSON()?["request_id"] as? String == "p\(index)")
        }
        try await server.stop()
    }

    @Test("connections that do not log in are closed after the login timeout")
    func loginTimeout() async throws {
        let server = try await TestServer.start { $0.loginTimeoutSeconds = 1 }
        let socket = try server.connect()
        #expect(try await socket.call("ping").ok)
        try await Task.sleep(for: .milliseconds(1500))
        #expect(try await socket.readLine() == nil)
        try await server.stop()
    }

    @Test("a connection over its request rate gets rate_limited")
    func rateLimit() async throws {
        let server = try await TestServer.start { $0.requestsPerSecond = 5 }
        let socket = try server.connect()
        var codes: [String?] = []
        for _ in 0..<12 { codes.append(try await socket.call("ping").errorCode) }
        #expect(codes.prefix(10).allSatisfy { $0 == nil })
        #expect(codes.suffix(2).allSatisfy { $0 == "rate_limited" })
        try await server.stop()
    }

    @Test("16 MiB of requests sent without reading: every one is answered, in order, across reads of every size, and another client is answered meanwhile")
    func floodWithoutReading() async throws {
        let server = try await TestServer.start()
        let flooder = try server.connect()
        // Lines of 500 to 1,500 bytes (padding is JSON whitespace), so lines straddle the server's reads everywhere.
        let count = 16_000
        var bytes: [UInt8] = []
        for index in 0..<count {
            let padding = String(repeating: " ", count: 500 + (index * 7919) % 1_000)
            bytes += Array("{\"type\":\"ping\",\(padding)\"request_id\":\"f\(index)\"}\n".utf8)
        }
        let fd = flooder.fd, all = bytes
        let sent = Mutex(false)
        DispatchQueue.global().async {
            var offset = 0
            while offset < all.count {
                let written = all[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if written <= 0 { break }
                offset += written
            }
            sent.withLock { $0 = offset == all.count }
        }
        // Another client is served while the flood is read.
        let other = try server.connect()
        #expect(try await other.call("ping").ok)
        // Over its request rate most are refused, but each gets its answer, with its id, in order.
        var answered = 0
        while answered < count, let answer = try await flooder.readJSON() {
            guard answer["request_id"] as? String == "f\(answered)" else {
                Issue.record("answer \(answered) was \(answer)")
                break
            }
            answered += 1
        }
        #expect(answered == count)
        // Everything was read, so the sender finishes (it may still be returning from its last send).
        for _ in 0..<50 where !sent.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(100)) }
        #expect(sent.withLock { $0 })
        #expect(try await flooder.call("ping").errorCode == "rate_limited")
        try await server.stop()
    }

    @Test("graceful shutdown stops accepting and run() returns")
    func gracefulShutdown() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        #expect(try await socket.call("ping").ok)
        let port = server.port
        try await server.stop()
        #expect(try await socket.readLine() == nil)
        #expect(throws: (any Error).self) { try LineSocket(port: port) }
    }
}

@Suite("Per-account rate limit", .serialized)
struct AccountRateLimitTests {
    @Test("an account's connections share one budget")
    func sharedBudget() async throws {
        let server = try await TestServer.start { $0.accountRequestsPerSecond = 5 }
        let ann = TestAccount("ann@example.org")
        let first = try server.connect()
        try await server.createAccount(ann, on: first)
        _ = try await server.login(ann, on: first)
        let second = try server.connect()
        _ = try await server.login(ann, on: second)
        var codes: [String?] = []
        for index in 0..<12 {
            let socket = index.isMultiple(of: 2) ? first : second
            codes.append(try await socket.call("whoami").errorCode)
        }
        // 10 tokens (burst) across both connections, the rest refused; the manual clock does not move.
        #expect(codes.filter { $0 == nil }.count <= 10)
        #expect(codes.suffix(2).allSatisfy { $0 == "rate_limited" })
        try await server.stop()
    }
}
