import Foundation
@testable import ParleyClient
import Testing

@Suite("Client: nothing readable at rest")
struct AtRestTests {
    /// Every file the clients and the server wrote is searched for the plaintexts and the key bytes.
    @Test func noPlaintextOrKeyBytesOnDisk() async throws {
        let harness = try await ClientHarness.start()
        // A PIN long enough that no random byte run or the server's 8-digit codes hold it by chance ("8642" once
        // matched a verification code in the dev server's log).
        let ann = try await harness.person("ann", pin: "rosewood-8642-pin")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let secrets = ["zebra-crossing-at-midnight", "the vault code is 7741-alpha", "quietly unremarkable parsnips"]
        for secret in secrets { _ = try await ann.send(secret, to: chat.id) }
        try await eventually("bob has all") { try bob.history.messages(in: chat.id).count == secrets.count }
        _ = try bob.history.search("parsnips")
        let group = try await ann.groups.create(title: "Secret garden club", inviting: ["bob@example.org"])
        _ = try await bob.groups.accept(group.id)
        _ = try await ann.send("hidden-group-message-xyzzy", to: group.id)
        try await eventually("bob has the group message") { try bob.history.messages(in: group.id).count >= 1 }
        let keyBytes = [await ann.keys.identitySeed, await ann.keys.authSeed, await bob.keys.identitySeed, await bob.keys.authSeed]
        for client in [ann, bob] { await client.disconnect() }

        let needles: [[UInt8]] = (secrets + ["hidden-group-message-xyzzy", "Secret garden club", "parsnips", "rosewood-8642-pin"]).map { Array($0.utf8) }
        var scanned = 0
        let files = FileManager.default.enumerator(at: harness.root, includingPropertiesForKeys: nil)!
        for case let url as URL in files where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let bytes = try [UInt8](Data(contentsOf: url))
            scanned += 1
            for needle in needles {
                #expect(!bytes.contains(needle), "\(url.lastPathComponent) holds a plaintext")
            }
            for key in keyBytes { #expect(!bytes.contains(key), "\(url.lastPathComponent) holds a private key") }
        }
        #expect(scanned >= 4)
        try await harness.stop()
    }
}

extension [UInt8] {
    func contains(_ needle: [UInt8]) -> Bool {
        Data(self).range(of: Data(needle)) != nil
    }
}
