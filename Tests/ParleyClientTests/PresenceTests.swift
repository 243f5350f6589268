import Foundation
import ParleyClient
import Synchronization
import Testing

@Suite("Client: presence of contacts")
struct ClientPresenceTests {
    @Test func contactsComeAndGo() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let annID = try #require(await ann.accountID), bobID = try #require(await bob.accountID)
        // Strangers: the server tells nobody about anybody.
        #expect(await ann.onlineContacts.isEmpty)
        let chat = try await ann.startConversation(with: "bob@example.org")
        // A message request: until bob answers, neither learns the other's presence.
        #expect(await ann.onlineContacts.isEmpty)
        try await bob.requests.accept(chat.id)
        try await eventually("each hears the other is online") {
            let annSees = await ann.isOnline(bobID), bobSees = await bob.isOnline(annID)
            return annSees && bobSees
        }

        // Now contacts. Wait for each notification itself, so a reconnect cannot overtake the close.
        let heard = PresenceLog(ann.events())
        await bob.disconnect()
        try await eventually("ann hears bob leave", seconds: 60) { heard.count("user_offline") == 1 }
        #expect(await !ann.isOnline(bobID))
        try await bob.connect()
        try await eventually("ann hears bob arrive", seconds: 60) { heard.count("user_online") == 1 }
        #expect(await ann.isOnline(bobID))
        #expect(await ann.onlineContacts == [bobID])
        // Bob's login brought the full list with it.
        try await eventually("bob's login lists ann") { await bob.onlineContacts == [annID] }

        // Disconnected, nothing is known: presence reads empty rather than stale.
        await ann.disconnect()
        #expect(await ann.onlineContacts.isEmpty)
        try await eventually("bob hears ann leave", seconds: 60) { await bob.onlineContacts.isEmpty }
        await bob.disconnect()
        try await harness.stop()
    }
}

/// Counts the presence notifications a client reports.
private final class PresenceLog: Sendable {
    private let names = Mutex<[String]>([])

    init(_ events: AsyncStream<ClientEvent>) {
        Task { [self] in
            for await event in events {
                if case .server(let server) = event { record(server.name) }
            }
        }
    }

    private func record(_ name: String) { names.withLock { $0.append(name) } }

    func count(_ name: String) -> Int { names.withLock { $0.filter { $0 == name }.count } }
}
