import Foundation
import GRDB
import ParleyClient
import ParleyCrypto
import ParleyServer

/// The steps of `parley demo`, run against a real embedded server over real sockets.
public final class DemoTour: @unchecked Sendable {
    let root: URL
    let narrator: DemoNarrator
    var server: EmbeddedServer?
    var people: [String: ParleyClient] = [:]

    /// A tour keeping its server data and homes under `root`, told by `narrator`.
    public init(root: URL, narrator: DemoNarrator) {
        self.root = root
        self.narrator = narrator
    }

    /// Runs every chapter; throws at the first step that does not do what the tour says.
    public func run() async throws {
        narrator.chapter(1, "A server of your own")
        let server = try await startServer(port: 0)
        narrator.say("parley server (development mode) on 127.0.0.1:\(server.port), SQLite in \(server.dataDirectory.lastPathComponent)/")
        let ann = try await person("ann", pin: "2468")
        let bob = try await person("bob", pin: nil)
        let carol = try await person("carol", pin: nil)
        narrator.ok("ann, bob and carol registered, each with a home of their own; ann's vault is locked by a PIN")
        let annID = try await id(ann), bobID = try await id(bob), carolID = try await id(carol)

        narrator.chapter(2, "A private conversation (PQXDH + Double Ratchet)")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let lunch = try await sendAndShow(ann, "ann", "Lunch at noon? The usual place.", to: chat.id, reader: bob, readerName: "bob")
        let reply = try require(try await bob.send("Yes! I'll book a table.", to: chat.id, replyTo: lunch.id).message)
        let replyStored = try stored(reply.id, for: annID)
        let annSees = try await waitFor(ann, reply.id)
        narrator.compare(stored: replyStored, viewer: "ann", sees: annSees.text)
        narrator.ok("bob's message is a reply to message \(annSees.replyTo.map(String.init) ?? "?") (\"\(lunch.text)\")")

        narrator.chapter(3, "Reactions and pins")
        try await bob.messageActions.react("❤️", to: lunch.id)
        try await ann.messageActions.pin(lunch.id)
        try await eventuallyTrue { try ann.history.message(lunch.id)?.hasReaction("❤️", from: bobID) == true }
        try await eventuallyTrue { try bob.history.message(lunch.id)?.pinned == true }
        narrator.ok("ann sees bob's ❤️ on her message; bob sees that ann pinned it")

        narrator.chapter(4, "A group (Sender Keys) and a member removed")
        let group = try await ann.groups.create(title: "Climbing trip", inviting: ["bob@example.org", "carol@example.org"])
        _ = try await bob.groups.accept(group.id)
        _ = try await carol.groups.accept(group.id)
        narrator.say("ann created “Climbing trip”; bob and carol accepted (the title travels end-to-end)")
        _ = try await sendAndShow(ann, "ann", "Saturday at 8, bring ropes.", to: group.id, reader: carol, readerName: "carol")
        try await ann.groups.remove(carolID, from: group.id)
        narrator.say("ann removed carol; ann's next message starts a new sender-key chain")
        let secret = try await sendAndShow(ann, "ann", "Surprise party for carol after the climb!", to: group.id, reader: bob, readerName: "bob")
        let carolGot = try await carol.sync()
        let carolHas = try carol.history.message(secret.id)
        guard carolGot.isEmpty, carolHas == nil else { throw DemoFailure("carol received a message after her removal") }
        narrator.ok("carol received nothing: the server no longer delivers to her, and she never got the new chain key")

        narrator.chapter(5, "The vault PIN")
        try await ann.vault.changePIN(current: "2468", new: "1357")
        narrator.say("ann changed her PIN from 2468 to 1357 (only the MainKey is re-wrapped; no data is re-encrypted)")
        do {
            try await ann.vault.unlock(pin: "2468")
            throw DemoFailure("the old PIN still opened the vault")
        } catch let error as ClientError {
            narrator.ok("the old PIN is refused: \(error)")
        }
        try await ann.vault.unlock(pin: "1357")
        narrator.ok("the new PIN opens it")

        narrator.chapter(6, "The server restarts; nothing is lost")
        try await server.stop()
        self.server = nil
        narrator.say("server stopped")
        let queued = try await bob.send("Sent while the server was down.", to: chat.id)
        guard case .queued = queued else { throw DemoFailure("a send without a server should be queued") }
        narrator.say("bob sends anyway: the message waits, sealed, in bob's outbox (\(try await bob.pendingCount()) pending)")
        let restarted = try await startServer(port: server.port)
        narrator.say("server started again on 127.0.0.1:\(restarted.port) with the same data")
        try await eventuallyTrue(seconds: 20) { try await bob.pendingCount() == 0 }
        let history = try await eventuallyValue(seconds: 20) { () async throws -> Message? in
            try ann.history.messages(in: chat.id).first { $0.text == "Sent while the server was down." }
        }
        narrator.compare(stored: try stored(history.id, for: annID), viewer: "ann", sees: history.text)
        let before = try ann.history.messages(in: chat.id).count
        narrator.ok("bob's client reconnected by itself and sent it; ann's history holds all \(before) messages of the chat")

        narrator.chapter(7, "What each side knows")
        narrator.say("the server: ciphertext, who talks to whom, and when — never a password, a private key or a word of text")
        narrator.say("each device: its keys and history, sealed under its MainKey in \(home("ann").lastPathComponent)/accounts/…/client.sqlite")
        narrator.ok("tour finished")
    }

    /// Disconnects everyone and stops the server (also after a failed step).
    public func shutdown() async {
        for client in people.values { await client.disconnect() }
        try? await server?.stop()
        server = nil
    }

    // MARK: helpers

    private func startServer(port: Int) async throws -> EmbeddedServer {
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"), port: port)
        self.server = server
        return server
    }

    private func home(_ name: String) -> URL { root.appendingPathComponent("home-\(name)") }

    private func person(_ name: String, pin: String?) async throws -> ParleyClient {
        guard let server else { throw DemoFailure("no server") }
        let email = "\(name)@example.org"
        let client = try ParleyClient.create(
            home: home(name), email: email, displayName: name.capitalized,
            server: ServerAddress(host: "127.0.0.1", port: server.port), pin: pin,
            reconnectPolicy: ReconnectPolicy(initial: 0.25, maximum: 2))
        try await client.registration.register(password: "demo password for \(name)", envelopeIterations: KeyEnvelope.minimumSealIterations)
        guard let code = server.latestCode(for: email) else { throw DemoFailure("the server sent no code to \(email)") }
        try await client.registration.confirm(code: code)
        try await client.connect()
        people[name] = client
        return client
    }

    private func id(_ client: ParleyClient) async throws -> Int64 {
        guard let id = await client.accountID else { throw DemoFailure("an account is not confirmed") }
        return id
    }

    private func sendAndShow(
        _ sender: ParleyClient, _ senderName: String, _ text: String, to conversation: Int64,
        reader: ParleyClient, readerName: String
    ) async throws -> Message {
        guard let sent = try await sender.send(text, to: conversation).message else { throw DemoFailure("not sent") }
        narrator.say("\(senderName) → \(readerName): “\(text)”")
        // Read at once: the reader's envelope is deleted the moment its device confirms delivery.
        let ciphertext = try stored(sent.id, for: try await id(reader))
        let seen = try await waitFor(reader, sent.id)
        narrator.compare(stored: ciphertext, viewer: readerName, sees: seen.text)
        return sent
    }

    private func waitFor(_ client: ParleyClient, _ messageID: Int64) async throws -> Message {
        try await eventuallyValue { try client.history.message(messageID) }
    }

    /// What the server really holds for a message: the reader's envelope until its device confirms delivery;
    /// then nothing (the row is deleted at once, docs/API.md §6).
    private func stored(_ messageID: Int64, for account: Int64) throws -> DemoNarrator.Stored {
        guard let server else { return .nothing }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: server.databasePath, configuration: configuration)
        let data = try queue.read { db in
            try Data.fetchOne(db, sql: "SELECT ciphertext FROM envelopes WHERE message_id = ? AND account_id = ? LIMIT 1",
                              arguments: [messageID, account])
        }
        guard let data, !data.isEmpty else { return .nothing }
        return .envelope(Array(data))
    }

    private func eventuallyTrue(seconds: Double = 10, _ condition: () async throws -> Bool) async throws {
        _ = try await eventuallyValue(seconds: seconds) { try await condition() ? true : nil }
    }

    private func eventuallyValue<T>(seconds: Double = 10, _ probe: () async throws -> T?) async throws -> T {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let value = try await probe() { return value }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw DemoFailure("timed out waiting for the other side")
    }
}

/// `#require` for the demo: a value or a clear failure.
private func require<T>(_ value: T?, _ what: String = "a value") throws -> T {
    guard let value else { throw DemoFailure("expected \(what)") }
    return value
}
