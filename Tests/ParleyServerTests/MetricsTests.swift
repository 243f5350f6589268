import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `parley server --metrics`: Prometheus text at /metrics, with bounded labels and no secrets.
@Suite("Prometheus metrics of the real binary", .serialized)
struct MetricsTests {
    static func get(_ url: String, method: String = "GET") async throws -> (Int, String) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test("requests, errors, durations and connections are counted; made-up methods and e-mails never become labels")
    func metricsEndpoint() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-metrics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await ServerProcess.start(data: data, extraArguments: ["--metrics", "127.0.0.1:0"])
        defer { server.killWithoutWaiting() }
        let base = "http://127.0.0.1:\(try #require(server.metricsPort))"

        let socket = try LineSocket(port: server.port)
        #expect(try await socket.call("ping").ok)
        #expect(try await socket.call("whoami").errorCode == "unauthenticated")
        #expect(try await socket.call("method_\(UUID().uuidString.prefix(8))").errorCode == "unknown_method")
        #expect(try await socket.call("recovery_start", ["email": "secret.person@example.org"]).ok)

        let (status, text) = try await Self.get(base + "/metrics")
        #expect(status == 200)
        #expect(text.contains(#"parley_requests_total{method="ping"} 1"#), "\(text)")
        #expect(text.contains(#"parley_request_errors_total{method="whoami",code="unauthenticated"} 1"#))
        #expect(text.contains(#"parley_requests_total{method="unknown"} 1"#))
        #expect(text.contains(#"parley_request_duration_seconds_count{method="recovery_start"} 1"#))
        #expect(text.contains("parley_connections 1"), "the open socket is counted")
        #expect(text.contains("parley_store_duration_seconds_count"))
        #expect(!text.contains("secret.person") && !text.contains("method_"), "no e-mail and no made-up method in the labels")
        // The process's memory, read at the scrape: both present and of a size a running server has.
        for name in ["process_resident_memory_bytes", "parley_heap_in_use_bytes"] {
            let value = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
            #expect(value.map { $0 > Double(1 << 20) && $0 < Double(8 << 30) } == true, "\(name): \(String(describing: value))")
        }

        #expect(try await Self.get(base + "/other").0 == 404)
        #expect(try await Self.get(base + "/metrics", method: "POST").0 == 405)
    }

    @Test("the memory budget's flags reach the server, and every refusal is counted by reason")
    func refusalsCounted() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-metrics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await ServerProcess.start(data: data, extraArguments: [
            "--metrics", "127.0.0.1:0", "--max-connections-per-address", "2", "--max-line-before-login", "16384",
        ])
        defer { server.killWithoutWaiting() }
        let base = "http://127.0.0.1:\(try #require(server.metricsPort))"

        let first = try LineSocket(port: server.port, source: "127.0.0.2")
        #expect(try await first.call("ping").ok)
        let long = try LineSocket(port: server.port, source: "127.0.0.2")
        await long.send([UInt8](repeating: 0x41, count: 16_385))
        #expect(try await long.readJSON()?.errorCode == "line_too_long")
        #expect(try await long.readLine() == nil)
        // The second place again, once the server has taken the closed connection's back (on its own time): its
        // connections gauge, lowered after the place is released, shows only the first one open.
        for _ in 0..<100 {
            let (_, open) = try await Self.get(base + "/metrics")
            let gauge = open.split(separator: "\n").first { $0.hasPrefix("parley_connections ") }.flatMap { Double($0.split(separator: " ")[1]) }
            if gauge == 1 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let second = try LineSocket(port: server.port, source: "127.0.0.2")
        #expect(try await second.call("ping").ok)
        let third = try LineSocket(port: server.port, source: "127.0.0.2")
        #expect(try await third.readJSON()?.errorCode == "unavailable")
        #expect(try await LineSocket(port: server.port).call("ping").ok, "another address is not affected")

        let (_, text) = try await Self.get(base + "/metrics")
        #expect(text.contains(#"parley_refusals_total{reason="connections_per_address"} 1"#), "\(text)")
        #expect(text.contains(#"parley_refusals_total{reason="line_too_long"} 1"#))
    }
}
