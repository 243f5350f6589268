import Foundation
import Testing

/// `hello`: the protocol version a client speaks (docs/API.md §1), over a real socket on a default server.
@Suite("hello: the protocol version")
struct HelloTests {
    @Test("version 1 is answered with the server's; another version is refused naming both; the connection goes on")
    func versions() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let hello = try await socket.call("hello", ["protocol": 1, "client": "tests"])
        #expect(hello.ok && hello["protocol"] as? Int == 1, "\(hello)")
        let newer = try await socket.call("hello", ["protocol": 2])
        #expect(newer.errorCode == "unsupported_protocol")
        let words = ((newer["error"] as? [String: Any])?["message"] as? String) ?? ""
        #expect(words.contains("protocol 1") && words.contains("protocol 2") && words.contains("update the server"), "\(words)")
        #expect(try await socket.call("ping").ok, "the connection stays usable")
        try await server.stop()
    }

    @Test("hostile hellos: missing, wrong types, out of range, an oversized client name — each a clear error, nothing else changes")
    func hostile() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        #expect(try await socket.call("hello").errorCode == "missing_field")
        for value: Any in ["1", 0, -1, 1.5, 1_000_000_000_000, true, [1], NSNull()] {
            #expect(try await socket.call("hello", ["protocol": value]).errorCode == "invalid_field", "\(value)")
        }
        #expect(try await socket.call("hello", ["protocol": 1, "client": String(repeating: "x", count: 65)]).errorCode == "invalid_field")
        #expect(try await socket.call("hello", ["protocol": 1, "client": 7]).errorCode == "invalid_field")
        #expect(try await socket.call("whoami").errorCode == "unauthenticated", "a hello logs nothing in")
        try await server.stop()
    }
}
