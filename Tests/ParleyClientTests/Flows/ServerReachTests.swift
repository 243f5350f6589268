import Foundation
import ParleyClient
import ParleyServer
import ParleyWire
import Testing

@Suite("Flows: whether the server can be reached")
struct ServerReachTests {
    @Test("only an absent server counts as offline; an answer (refusal, pin, TLS, sign-out) is never worked around")
    func offlineReasons() {
        for absent: ClientError in [.unreachable("127.0.0.1:1: connection refused"), .timeout("login"), .disconnected, .notConnected] {
            #expect(ServerReach.offlineReason(absent) == absent.description)
        }
        let answers: [ClientError] = [
            .pinMismatch, .tlsProblem("the server uses TLS"), .signedOut, .notConfirmed, .cannotDecrypt,
            .invalidInput("bad"), .badResponse("garbage"), .protocolMismatch(server: 99), .accountInUse("42 parley"),
            .server(WireError(.forbidden, "no")),
        ]
        for answer in answers { #expect(ServerReach.offlineReason(answer) == nil, "\(answer) was taken for an absent server") }
    }

    @Test("connecting to a server that is gone gives the reason instead of failing")
    func connectGivesTheReason() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        await ann.disconnect()
        try await harness.server.stop()
        let reason = try await ServerReach.connect(ann, reconnect: false, catchUp: false)
        #expect(reason != nil)
        await ann.disconnect()
        try? FileManager.default.removeItem(at: harness.root)
    }

    @Test("waiting for a server that stays away ends when the wait is cancelled")
    func waitingIsCancellable() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        await ann.disconnect()
        try await harness.server.stop()
        let waiting = Task { try await ServerReach.waitForServer(ann, firstPause: 0.01, longestPause: 0.05) }
        try await Task.sleep(for: .milliseconds(300))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        await ann.disconnect()
        try? FileManager.default.removeItem(at: harness.root)
    }

    @Test("waiting ends once the server is back")
    func waitingEndsWhenTheServerReturns() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        await ann.disconnect()
        let port = harness.server.port
        try await harness.server.stop()
        let waiting = Task { try await ServerReach.waitForServer(ann, firstPause: 0.05, longestPause: 0.2) }
        let again = try await EmbeddedServer.restart(dataDirectory: harness.root.appendingPathComponent("server"), port: port)
        try await waiting.value
        #expect(try await ann.conversations().isEmpty)
        await ann.disconnect()
        try await again.stop()
        try? FileManager.default.removeItem(at: harness.root)
    }
}
