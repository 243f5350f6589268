import Foundation
import ParleyClient
import ParleyCrypto
import Testing

@Suite("Flows: starting and ending an account on a device")
struct AccountSetupTests {
    static func register(_ harness: ClientHarness, _ name: String, email: String? = nil, password: String = "correct horse battery") async throws(AccountSetupError) -> ParleyClient {
        try await AccountSetup.register(
            home: harness.home(name), email: email ?? "\(name)@example.org", displayName: name.capitalized, server: harness.address, pin: nil,
            deviceName: "test", password: password, invite: nil, envelopeIterations: KeyEnvelope.minimumSealIterations)
    }

    @Test("a registration that fails leaves nothing behind, so the same registration works next time")
    func failedRegistrationLeavesNothing() async throws {
        let harness = try await ClientHarness.start()
        do {
            _ = try await Self.register(harness, "ann", password: "short")
            Issue.record("a 5-character password was accepted")
        } catch {
            guard case .registrationFailed = error else { throw error }
            #expect(error.description.hasSuffix("; nothing was kept on this device, so run the command again once that is fixed"))
        }
        #expect(AccountHome.accounts(in: harness.home("ann")).isEmpty)
        let ann = try await Self.register(harness, "ann")
        #expect(AccountHome.accounts(in: harness.home("ann")) == ["ann@example.org"])
        #expect(harness.server.latestCode(for: "ann@example.org") != nil)
        await ann.disconnect()
        try await harness.stop()
    }

    @Test("hostile e-mail addresses are refused before anything is stored or sent")
    func hostileAddresses() async throws {
        let harness = try await ClientHarness.start()
        for email in ["", "not an address", "a@b@example.org", "\u{1B}]0;owned\u{07}", String(repeating: "é", count: 10_000)] {
            await #expect(throws: AccountSetupError.self) { _ = try await Self.register(harness, "x", email: email) }
            #expect(AccountHome.accounts(in: harness.home("x")).isEmpty)
        }
        try await harness.stop()
    }

    @Test("an account already in this home is not signed in again over itself")
    func alreadySignedIn() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        #expect(throws: AccountSetupError.alreadySignedIn(email: "ann@example.org", home: harness.home("ann").path)) {
            try AccountSetup.checkNotSignedIn(" Ann@Example.org ", home: harness.home("ann"))
        }
        #expect(AccountSetupError.alreadySignedIn(email: "ann@example.org", home: "/h").description
            == "ann@example.org is already signed in in this home (/h); use it, or pick another --home")
        try AccountSetup.checkNotSignedIn("ann@example.org", home: harness.home("elsewhere"))
        await ann.disconnect()
        try await harness.stop()
    }

    @Test("signing in with the e-mailed code and the password adds a device and names the others; removed, it is only erased")
    func signIn() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let laptop = try #require(await ann.deviceID)
        try await AccountRecovery.sendCode(email: "ann@example.org", server: harness.address)
        let code = try #require(harness.server.latestCode(for: "ann@example.org"))
        do {
            _ = try await AccountSetup.signIn(
                home: harness.home("ann-new"), email: "ann@example.org", server: harness.address, code: code,
                password: "the wrong password", pin: nil, deviceName: "new")
            Issue.record("a wrong password signed in")
        } catch {
            #expect(error.description == "that is not the account password; try again — the same code stays good for 15 minutes")
        }
        #expect(AccountHome.accounts(in: harness.home("ann-new")).isEmpty)
        let signedIn = try await AccountSetup.signIn(
            home: harness.home("ann-new"), email: "ann@example.org", server: harness.address, code: code,
            password: "correct horse ann", pin: nil, deviceName: "new")
        #expect(signedIn.deviceID != laptop)
        #expect(signedIn.otherDevices == [laptop])
        // Removed from the laptop, the new device can only erase its own copy when it signs out.
        await signedIn.client.disconnect()
        try await ann.devices.remove(signedIn.deviceID)
        #expect(try await AccountExit.signOut(signedIn.client) == .erasedOnly)
        #expect(AccountHome.accounts(in: harness.home("ann-new")).isEmpty)
        await ann.disconnect()
        try await harness.stop()
    }

    @Test("signing out leaves the account and erases this device's copy")
    func signOut() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        await ann.disconnect()
        #expect(try await AccountExit.signOut(ann) == .signedOut)
        #expect(AccountHome.accounts(in: harness.home("ann")).isEmpty)
        try await harness.stop()
    }

    @Test("deleting the account connects first and leaves nothing on this device")
    func delete() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        await ann.disconnect()
        try await AccountExit.deleteAccount(ann)
        #expect(AccountHome.accounts(in: harness.home("ann")).isEmpty)
        try await harness.stop()
    }

    @Test("the short fingerprint is the first half of SHA-256 in groups of four, for any key")
    func fingerprint() {
        #expect(IdentityFingerprint.short([]) == "e3b0 c442 98fc 1c14 9afb f4c8 996f b924")
        for key in [[UInt8](repeating: 0xFF, count: 1 << 20), [0], Array("\u{1B}[2J".utf8)] {
            let text = IdentityFingerprint.short(key)
            #expect(text.split(separator: " ").map(\.count) == Array(repeating: 4, count: 8))
            #expect(text.allSatisfy { $0 == " " || $0.isHexDigit })
        }
    }
}
