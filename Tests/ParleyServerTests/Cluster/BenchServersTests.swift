import Foundation
import ParleyTestSupport
import Testing

/// `parley bench server --servers`: the load harness drives several real nodes and reports what it measured.
extension MultiNodeSuites {
    @Suite("parley bench server against three nodes", .serialized)
    struct BenchServersTests {
        @Test("group traffic spread over three PostgreSQL nodes is delivered, with the nodes' memory reported")
        func threeNodes() async throws {
            try await MultiNodeSuites.FailoverTests.Nodes.with { nodes in try await threeNodes(nodes) }
        }

        func threeNodes(_ nodes: MultiNodeSuites.FailoverTests.Nodes) async throws {
            let codes = nodes.data.appendingPathComponent("dev-codes.log").path
            var arguments = [
                "bench", "server", "--servers", nodes.processes.map { "127.0.0.1:\($0.port)" }.joined(separator: ","), "--codes", codes,
                "--connections", "6", "--group-size", "3", "--rate", "20", "--duration", "2", "--warmup", "0.5",
                "--confirm-every", "200",
            ]
            for process in nodes.processes { arguments += ["--server-pid", "\(process.process.processIdentifier)"] }
            let command = arguments
            let (status, output) = try await ServerProcess.runToExitWithOutput(command)
            #expect(status == 0, "\(output)")
            #expect(output.contains("nodes                3"), "\(output)")
            #expect(output.contains("offered              20 msg/s × 2 recipient(s) = 40 deliveries/s"))
            #expect(output.contains("errors               0"))
            // Every delivery due from a message acknowledged in the measured 2 s arrives (about 80 of them).
            let counts = output.firstMatch(of: /delivered\s+\d+ deliveries\/s \((\d+) of the (\d+) due/).map { (Int($0.1) ?? 0, Int($0.2) ?? 0) }
            #expect(counts.map { $0.0 == $0.1 && $0.1 >= 60 } == true, "\(output)")
            #expect(output.contains("undelivered          0\n"), "\(output)")
            // Recipients confirmed what arrived, in batches, and the nodes accepted every confirmation.
            let confirmed = output.firstMatch(of: /confirmed\s+(\d+) deliveries, every 200 ms \(0 requests failed\)/).map { Int($0.1) ?? 0 } ?? 0
            #expect(confirmed >= 60, "\(output)")
            #expect(output.contains(/server RSS\s+\d+ MiB\n/), "\(output)")

            let (refused, errors) = try await ServerProcess.runToExit(["bench", "server", "--servers", "127.0.0.1:1", "--connections", "6", "--group-size", "4"])
            #expect(refused != 0)
            #expect(errors.contains("multiple of --group-size"), "\(errors)")
        }
    }

    /// The limit flags `parley server` takes (the benchmark turns them off; operators tune them).
    @Suite("parley server limit flags")
    struct ServerLimitFlagsTests {
        @Test("the per-connection, per-account and registration limits are checked and applied")
        func limitFlags() async throws {
            for flag in ["--requests-per-second", "--account-requests-per-second", "--registrations-per-minute"] {
                let (status, errors) = try await ServerProcess.runToExit(["server", "--dev", flag, "0"])
                #expect(status != 0 && errors.contains("must be at least 1"), "\(flag): \(errors)")
            }
            // Applied: with 1 request per second (bursts of 2), ten pings sent in one go mostly get rate_limited.
            // (Pipelined, so the answer does not depend on how fast this machine is: they arrive together.)
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-limits-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: data) }
            let server = try await ServerProcess.start(data: data, extraArguments: ["--requests-per-second", "1"])
            defer { server.killWithoutWaiting() }
            let socket = try LineSocket(port: server.port)
            let lines = (0..<10).map { #"{"type":"ping","request_id":"p\#($0)"}"# }.joined(separator: "\n") + "\n"
            #expect(await socket.send(Array(lines.utf8)))
            var answers: [String] = []
            for _ in 0..<10 { answers.append(try await socket.readJSON()?.errorCode ?? "ok") }
            #expect(Array(answers.prefix(2)) == ["ok", "ok"], "\(answers)")
            #expect(answers.filter { $0 == "rate_limited" }.count >= 7, "\(answers)")
        }
    }
}
