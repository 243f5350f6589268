import Foundation
import ParleyClient
import ParleyCrypto
import ParleyWire
import Testing

@Suite("Client: pairing a second device, device list and removal")
struct DevicePairingClientTests {
    /// Pairs a new device for `person` under `home`: the new device waits while `person` authorizes.
    static func pair(
        _ person: ParleyClient, name: String, home: URL, harness: ClientHarness
    ) async throws -> (client: ParleyClient, deviceID: UInt32) {
        let pairing = try await DevicePairing.begin(email: person.email, server: harness.address, deviceName: name)
        async let joined = pairing.complete(home: home, pin: nil)
        let (authorizedName, id) = try await person.devices.authorize(code: pairing.code.text)
        #expect(authorizedName == name)
        let client = try await joined
        #expect(await client.deviceID == id)
        return (client, id)
    }

    @Test func aPairedDeviceHasTheHistoryAndTakesPartFromThenOn() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let first = try #require(try await ann.send("before the phone existed", to: chat.id).message)
        try await eventually("bob receives") { try bob.history.message(first.id) != nil }
        let answer = try #require(try await bob.send("bob's answer, encrypted only to ann's laptop", to: chat.id).message)
        try await eventually("ann receives") { try ann.history.message(answer.id) != nil }

        let (phone, phoneID) = try await Self.pair(ann, name: "phone", home: harness.home("ann-phone"), harness: harness)
        #expect(phoneID == 2)
        #expect(await phone.identityKey == (await ann.identityKey))
        // History, including what only the laptop could decrypt, is readable on the phone before it connects.
        #expect(try phone.history.message(answer.id)?.text == "bob's answer, encrypted only to ann's laptop")
        #expect(try phone.history.messages(in: chat.id).map(\.text) == ["before the phone existed", "bob's answer, encrypted only to ann's laptop"])
        #expect(try phone.history.search("encrypted laptop").map(\.id) == [answer.id])

        try await phone.connect()
        // From now on bob's messages reach both of ann's devices, and the phone's reach the laptop.
        let later = try #require(try await bob.send("to both of ann's devices", to: chat.id).message)
        try await eventually("the phone receives") { try phone.history.message(later.id)?.text == "to both of ann's devices" }
        try await eventually("the laptop receives") { try ann.history.message(later.id)?.text == "to both of ann's devices" }
        let fromPhone = try #require(try await phone.send("sent from the phone", to: chat.id).message)
        try await eventually("bob receives the phone's message") { try bob.history.message(fromPhone.id)?.text == "sent from the phone" }
        try await eventually("the laptop sees the phone's message") { try ann.history.message(fromPhone.id)?.text == "sent from the phone" }

        let devices = try await ann.devices.list()
        #expect(devices.map(\.id) == [1, 2])
        #expect(devices.map(\.name) == ["parley", "phone"])
        #expect(devices.first { $0.isThisDevice }?.id == 1)

        // Removing the phone: it is disconnected and gets nothing further; bob's sends still work.
        try await ann.devices.remove(2)
        try await eventually("the phone is disconnected") { await !phone.isConnected }
        let afterRemoval = try #require(try await bob.send("after the phone was removed", to: chat.id).message)
        try await eventually("the laptop receives") { try ann.history.message(afterRemoval.id) != nil }
        #expect(try await ann.devices.list().map(\.id) == [1])
        await #expect(throws: ClientError.self) { try await phone.connect(reconnect: false) }
        #expect(try phone.history.message(afterRemoval.id) == nil)
        await #expect(throws: ClientError.invalidInput("this is the device you are using; remove it from another device")) {
            try await ann.devices.remove(1)
        }

        // A third device gets id 3: a removed device's id is never handed out again.
        let (_, tabletID) = try await Self.pair(ann, name: "tablet", home: harness.home("ann-tablet"), harness: harness)
        #expect(tabletID == 3)
        for client in [ann, bob, phone] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func theNewDeviceOutlastsTheServersLoginTimeoutWhileTheUserTypesTheCode() async throws {
        // 20 s: short enough to pass twice during the wait, long enough for the new device's own fresh connection
        // (login and add_device, counted from its accept) on a machine the whole suite loads (8 s was missed).
        let harness = try await ClientHarness.start { $0.loginTimeoutSeconds = 20 }
        let ann = try await harness.person("ann")
        let pairing = try await DevicePairing.begin(email: ann.email, server: harness.address, deviceName: "phone")
        async let joined = pairing.complete(home: harness.home("ann-phone"), pin: nil)
        try await Task.sleep(for: .seconds(41))  // over twice the login timeout, between two pairing requests
        _ = try await ann.devices.authorize(code: pairing.code.text)
        #expect(try await joined.deviceID == 2)
        await ann.disconnect()
        try await harness.stop()
    }

    @Test func aWrongCodeAnotherAccountAndAReusedCodeAreRefused() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let mallory = try await harness.person("mallory")
        let pairing = try await DevicePairing.begin(email: ann.email, server: harness.address, deviceName: "phone")
        let code = pairing.code

        // A typo is caught locally; another account cannot even see the pairing.
        var typo = Array(code.text)
        typo[0] = typo[0] == "0" ? "1" : "0"
        await #expect(throws: ClientError.self) { try await ann.devices.authorize(code: String(typo)) }
        await #expect(throws: ClientError.self) { try await mallory.devices.authorize(code: code.text, timeout: .seconds(1)) }

        // The right pairing id with the wrong secret: the new device refuses the keys and creates nothing.
        let wrong = PairingCode(pairID: code.pairID, secret: code.secret.map { $0 ^ 0xFF })
        async let attempt: Void = {
            _ = try? await ann.devices.authorize(code: wrong.text, timeout: .seconds(2))
        }()
        await #expect(throws: ClientError.self) { try await pairing.complete(home: harness.home("ann-phone"), pin: nil, timeout: .seconds(20)) }
        await attempt
        #expect(AccountHome.accounts(in: harness.home("ann-phone")).isEmpty)
        // The pairing is burned: authorizing again with the right code is refused.
        await #expect(throws: ClientError.invalidInput("this code was already used; start pairing again on the new device")) {
            try await ann.devices.authorize(code: code.text)
        }
        #expect(try await ann.devices.list().count == 1)
        for client in [ann, mallory] { await client.disconnect() }
        try await harness.stop()
    }
}
