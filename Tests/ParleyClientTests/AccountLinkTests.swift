import Foundation
@testable import ParleyClient
import ParleyWire
import Testing

/// The components reach the server through a link that must not keep the account alive (its process lock is
/// released only when the client goes).
@Suite("Account link")
struct AccountLinkTests {
    @Test("a client its components link to is released once nobody else holds it; the link then reaches nothing")
    func theLinkDoesNotKeepTheClientAlive() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("parley-link-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        weak var released: ParleyClient?
        let link: AccountLink
        do {
            let client = try ParleyClient.create(home: home, email: "ann@example.org", displayName: "Ann",
                                                 server: ServerAddress(host: "127.0.0.1", port: 1), pin: nil)
            released = client
            link = await client.link
        }
        #expect(released == nil, "a component's link kept the client alive")
        await #expect(throws: ClientError.notConnected) { try await link.call(API.Ping.self, NoFields()) }
        // With the client gone, its account opens again in this process (the process lock was released).
        _ = try ParleyClient.open(home: home, email: "ann@example.org", pin: nil)
    }
}
