import Foundation
@testable import ParleyClient
import ParleyClientFormats
import ParleyVault
import Testing

@Suite("Client: signing a device out, one process per account, renaming groups")
struct AccountLifecycleTests {
    @Test func aSignedOutDeviceLeavesTheAccountAndItsLocalDataIsErased() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let (phone, phoneID) = try await DevicePairingClientTests.pair(ann, name: "phone", home: harness.home("ann-phone"), harness: harness)
        try await phone.connect()
        let before = try #require(try await bob.send("to both devices", to: chat.id).message)
        try await eventually("the phone receives") { try phone.history.message(before.id) != nil }

        let phoneDirectory = phone.directory
        try await phone.signOut()
        #expect(!FileManager.default.fileExists(atPath: phoneDirectory.path), "the phone's local data is erased")
        #expect(AccountHome.accounts(in: harness.home("ann-phone")).isEmpty)
        #expect(try await ann.devices.list().map(\.id) == [1])
        #expect(!(try await ann.devices.list().map(\.id)).contains(phoneID))
        // Bob's next message still reaches the laptop (the stale phone is dropped from his device list).
        let after = try #require(try await bob.send("only the laptop now", to: chat.id).message)
        try await eventually("the laptop receives") { try ann.history.message(after.id)?.text == "only the laptop now" }
        // A signed-out client is finished: it can neither log in nor read.
        await #expect(throws: ClientError.self) { try await phone.connect(reconnect: false) }
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func afterLosingEveryDeviceTheCodeAndThePasswordBringTheAccountBack() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        _ = try await ann.send("before the laptop was stolen", to: chat.id)
        let identity = await ann.identityKey
        await ann.close()
        try FileManager.default.removeItem(at: harness.home("ann"))
        let home = harness.home("ann-new")

        // A wrong password: nothing is created here, and the same code works with the right one.
        try await AccountRecovery.sendCode(email: "Ann@example.org", server: harness.address)
        let code = try #require(harness.server.latestCode(for: "ann@example.org"))
        await #expect(throws: ClientError.invalidInput("that is not the account password; try again — the same code stays good for 15 minutes")) {
            _ = try await AccountRecovery.restore(home: home, email: "ann@example.org", server: harness.address, code: code,
                                                  password: "not it", pin: nil, deviceName: "new laptop")
        }
        #expect(AccountHome.accounts(in: home).isEmpty)
        let restored = try await AccountRecovery.restore(
            home: home, email: "ann@example.org", server: harness.address, code: code, password: "correct horse ann",
            pin: "8642", deviceName: "new laptop")
        try await restored.connect()
        #expect(await restored.identityKey == identity, "the same identity: contacts see no key change")
        // The code is spent now that a device joined with it.
        await #expect(throws: ClientError.self) {
            _ = try await AccountRecovery.restore(home: harness.home("ann-third"), email: "ann@example.org", server: harness.address,
                                                  code: code, password: "correct horse ann", pin: nil, deviceName: "another")
        }
        #expect(await restored.deviceID == 2)
        #expect(try restored.registration.checkPassword("correct horse ann"))
        #expect(try restored.vault.protection() == .pin)
        // From now on the conversation works both ways; the stolen laptop can be revoked from here.
        let fromBob = try #require(try await bob.send("welcome back", to: chat.id).message)
        try await eventually("the restored device receives") { try restored.history.message(fromBob.id)?.text == "welcome back" }
        #expect(try bob.trust.status(of: try #require(await restored.accountID)) == .trusted)
        let fromAnn = try #require(try await restored.send("thanks, new laptop", to: chat.id).message)
        try await eventually("bob receives") { try bob.history.message(fromAnn.id)?.text == "thanks, new laptop" }
        try await restored.devices.remove(1)
        #expect(try await restored.devices.list().map(\.id) == [2])
        for client in [restored, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func anAccountIsOpenInOneClientAtATime() async throws {
        let harness = try await ClientHarness.start()
        var ann: ParleyClient? = try await harness.person("ann")
        let email = try #require(ann?.email)
        let clock = ContinuousClock.now
        let refusal: ClientError? = Self.failure { () throws(ClientError) in
            _ = try ParleyClient.open(home: harness.home("ann"), email: email, pin: nil, waitForOtherProcess: .milliseconds(300))
        }
        guard case .accountInUse(let holder)? = refusal else {
            Issue.record("a second client opened an account that is in use: \(String(describing: refusal))")
            return
        }
        #expect(holder.hasPrefix("\(getpid()) "), "the holder is named by pid: \(holder)")
        #expect(ContinuousClock.now - clock >= .milliseconds(300), "it waited before giving up")
        #expect(ClientError.accountInUse(holder).description.contains("open in another parley process"))
        await ann?.disconnect()
        ann = nil  // the last reference goes: the account is free again
        let again = try ParleyClient.open(home: harness.home("ann"), email: email, pin: nil, waitForOtherProcess: .seconds(5))
        #expect(await again.accountID != nil)
        try await harness.stop()
    }

    /// The error `body` throws, or nil.
    static func failure(_ body: () throws(ClientError) -> Void) -> ClientError? {
        do { try body(); return nil } catch { return error }
    }

    @Test func onlyTheCreatorRenamesAGroupAndAMembersTitleRenamesNothing() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let group = try await ann.groups.create(title: "Trip", inviting: ["bob@example.org"])
        _ = try await bob.groups.accept(group.id)
        try await eventually("bob learns the title") { try await bob.conversations().first { $0.id == group.id }?.title == "Trip" }

        try await ann.groups.rename(group.id, to: "Trip to Lisbon")
        try await eventually("bob sees the new title") {
            try await bob.conversations().first { $0.id == group.id }?.title == "Trip to Lisbon"
        }
        await #expect(throws: ClientError.invalidInput("only the group's creator renames it")) {
            try await bob.groups.rename(group.id, to: "Bob's party")
        }
        for blank in ["", "   ", "\u{200B}\u{2060}", "\t\n"] {
            await #expect(throws: ClientError.invalidInput("a group title needs something to show: it is empty or only spaces")) {
                try await ann.groups.rename(group.id, to: blank)
            }
        }
        await #expect(throws: ClientError.invalidInput("a group title has at most 256 bytes")) {
            try await ann.groups.rename(group.id, to: String(repeating: "é", count: 129))
        }
        await #expect(throws: ClientError.self) { try await ann.groups.create(title: "  ", inviting: ["bob@example.org"]) }
        // A modified client of bob's sends a title anyway: ann shows it as a message and keeps the name.
        let forged = OutboxEntry(
            conversationID: group.id, content: MessageContent(id: "forged-title", type: "group_title", text: "Bob's party"),
            kind: "group_title", forwardOf: nil, created: Int64(Date().timeIntervalSince1970 * 1000))
        let sent = try await bob.owner.deliver(forged)
        try await eventually("ann receives bob's title message") { try ann.history.message(sent.id) != nil }
        #expect(try await ann.conversations().first { $0.id == group.id }?.title == "Trip to Lisbon")
        #expect(try ann.history.message(sent.id)?.kind != "group_title")
        // A title in a direct conversation (bob started it, so he is its "creator") names nothing either.
        let direct = try await bob.startConversation(with: "ann@example.org")
        let inDirect = try await bob.owner.deliver(OutboxEntry(
            conversationID: direct.id, content: MessageContent(id: "direct-title", type: "group_title", text: "Our secret club"),
            kind: "group_title", forwardOf: nil, created: Int64(Date().timeIntervalSince1970 * 1000)))
        try await eventually("ann receives the title in the direct conversation") { try ann.history.message(inDirect.id) != nil }
        #expect(try ann.history.message(inDirect.id)?.kind == "text")
        #expect(try await ann.conversations().first { $0.id == direct.id }?.title == nil)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }
}
