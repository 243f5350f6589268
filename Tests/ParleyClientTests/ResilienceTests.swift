import Foundation
import ParleyClient
import ParleyServer
import Synchronization
import Testing

@Suite("Client: restarts, outbox, password")
struct ResilienceTests {
    @Test func serverRestartLosesNothingAndTheOutboxDrains() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let port = server.port
        func person(_ name: String) async throws -> ParleyClient {
            let client = try ParleyClient.create(
                home: root.appendingPathComponent(name), email: "\(name)@example.org", displayName: name,
                server: ServerAddress(host: "127.0.0.1", port: port), pin: nil,
                reconnectPolicy: ReconnectPolicy(initial: 0.1, maximum: 0.5))
            try await client.registration.register(password: "password of \(name)", envelopeIterations: 210_000)
            try await client.registration.confirm(code: try #require(server.latestCode(for: "\(name)@example.org")))
            try await client.connect()
            return client
        }
        let ann = try await person("ann"), bob = try await person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let before = try #require(try await ann.send("before the restart", to: chat.id).message)
        try await eventually("bob got it") { try bob.history.message(before.id) != nil }

        try await server.stop()
        let queued = try await ann.send("while the server is down", to: chat.id)
        guard case .queued = queued else { Issue.record("expected the message to be queued"); return }
        #expect(try await ann.pendingCount() == 1)
        // Whoever shows ann's conversation (her chat pane) is told when the queued message goes out.
        let events = ann.events()
        let announced = Mutex(false)
        let watcher = Task {
            for await event in events {
                if case .message(let message) = event, message.text == "while the server is down" { announced.withLock { $0 = true } }
            }
        }
        defer { watcher.cancel() }

        server = try await EmbeddedServer.restart(dataDirectory: root.appendingPathComponent("server"), port: port)
        try await eventually("ann's outbox drains", seconds: 60) { try await ann.pendingCount() == 0 }
        try await eventually("the queued message going out is announced") { announced.withLock { $0 } }
        try await eventually("bob reconnects and receives", seconds: 60) {
            try bob.history.messages(in: chat.id).map(\.text) == ["before the restart", "while the server is down"]
        }
        for client in [ann, bob] { await client.disconnect() }
        try await server.stop()
    }

    @Test func passwordChangeRewrapsTheBackup() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        #expect(try ann.registration.checkPassword("correct horse ann"))
        // Only with the current password (a probe changed it from an unlocked device knowing nothing), and to another.
        await #expect(throws: ClientError.invalidInput("the current password is not right; nothing changed")) {
            try await ann.registration.changePassword(from: "a wrong guess", to: "a brand new passphrase", iterations: 210_000)
        }
        await #expect(throws: ClientError.invalidInput("the new password is the one you have now; nothing changed")) {
            try await ann.registration.changePassword(from: "correct horse ann", to: "correct horse ann", iterations: 210_000)
        }
        #expect(try ann.registration.checkPassword("correct horse ann"))
        try await ann.registration.changePassword(from: "correct horse ann", to: "a brand new passphrase", iterations: 210_000)
        #expect(try ann.registration.checkPassword("a brand new passphrase"))
        #expect(try ann.registration.checkPassword("correct horse ann") == false)
        await #expect(throws: ClientError.self) { try await ann.registration.changePassword(from: "a brand new passphrase", to: "short") }
        await ann.disconnect()
        try await harness.stop()
    }

    @Test func requestsWhileDisconnectedFailFast() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        await ann.disconnect()
        await #expect(throws: ClientError.notConnected) { try await ann.messageActions.react("👍", to: 1) }
        await #expect(throws: ClientError.notConnected) { try await ann.startConversation(with: "x@example.org") }
        try await harness.stop()
    }
}

/// A message sent while a reconnect is between socket and login waits in the outbox; the server's
/// "log in first" for it must never count as a refusal (which would drop it).
@Suite("Client: sending during a reconnect's login")
struct ReconnectLoginWindowTests {
    @Test func sendBetweenSocketAndLoginIsQueuedThenDeliveredOnce() async throws {
        let harness = try await ClientHarness.start()
        let bob = try await harness.person("bob")
        let proxy = try LoginHoldingProxy(upstream: harness.server.port, hold: .milliseconds(1_500))
        defer { proxy.stop() }
        let email = "ann@example.org"
        let ann = try ParleyClient.create(
            home: harness.home("ann"), email: email, displayName: "Ann", server: ServerAddress(host: "127.0.0.1", port: proxy.port),
            pin: nil, reconnectPolicy: ReconnectPolicy(initial: 0.1, maximum: 0.5))
        try await ann.registration.register(password: "correct horse ann", envelopeIterations: 210_000)
        try await ann.registration.confirm(code: try #require(harness.server.latestCode(for: email)))
        try await ann.connect()
        let chat = try await ann.startConversation(with: "bob@example.org").id

        proxy.cutAll()
        try await eventually("ann's reconnect is waiting for its login_finish") { proxy.holding > 0 }
        let outcome = try await ann.send("sent during the login", to: chat)
        guard case .queued = outcome else {
            Issue.record("expected the message to wait in the outbox, got \(outcome)")
            return
        }
        try await eventually("the outbox drains after the login", seconds: 60) { try await ann.pendingCount() == 0 }
        try await eventually("bob has it exactly once", seconds: 60) {
            try bob.history.messages(in: chat).map(\.text) == ["sent during the login"]
        }
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }
}
