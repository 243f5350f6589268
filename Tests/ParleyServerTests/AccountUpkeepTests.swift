import Crypto
import Foundation
import ParleyCrypto
import Testing

@Suite("Account upkeep", .serialized)
struct AccountUpkeepTests {
    @Test("change_password stores only a new ECP1 envelope and refuses anything else")
    func changePassword() async throws {
        let people = try await TwoPeople.start()
        #expect(try await people.annSocket.call("get_key_envelope").errorCode == "not_found")
        let envelope = try KeyEnvelope.seal(Array("identity seed".utf8), password: "new password", iterations: 210_000)
        let encoded = Data(envelope.bytes).base64EncodedString()
        #expect(try await people.annSocket.call("change_password", ["key_envelope": encoded]).ok)
        #expect(try await people.annSocket.call("get_key_envelope")["key_envelope"] as? String == encoded)
        #expect(try await people.annSocket.call("change_password", ["key_envelope": Data("plain".utf8).base64EncodedString()]).errorCode == "invalid_field")
        #expect(try await people.annSocket.call("get_key_envelope")["key_envelope"] as? String == encoded)
        try await people.server.stop()
    }

    @Test("register keeps only a well-formed ECP1 envelope: garbage, a bare magic, a cut or a forged iteration count is refused and nothing is registered")
    func registerChecksTheEnvelope() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let sealed = try KeyEnvelope.seal(Array("identity seed".utf8), password: "pass phrase", iterations: 210_000).bytes
        var forged = sealed
        forged[20...23] = [0xFF, 0xFF, 0xFF, 0xFF]   // iterations beyond what any client seals or opens
        for (bytes, why) in [(Array("plain".utf8), "garbage"), (KeyEnvelope.magic, "magic only"), (Array(sealed.prefix(40)), "cut"),
                             (forged, "forged iterations")] {
            var fields = TestAccount("ann@example.org").registerFields
            fields["key_envelope"] = Data(bytes).base64EncodedString()
            let answer = try await socket.call("register", fields)
            #expect(answer.errorCode == "invalid_field" && answer.errorMessage?.contains("key_envelope") == true, "\(why): \(answer)")
        }
        #expect(!FileManager.default.fileExists(atPath: server.directory.appendingPathComponent("dev-codes.log").path), "nothing was registered")
        var fields = TestAccount("ann@example.org").registerFields
        fields["key_envelope"] = Data(sealed).base64EncodedString()
        #expect(try await socket.call("register", fields).ok, "a sealed envelope registers")
        try await server.stop()
    }

    @Test("usernames are unique, validated and shown as a profile field")
    func username() async throws {
        let people = try await TwoPeople.start()
        #expect(try await people.annSocket.call("change_username", ["username": "Ann.Lisbon"])["username"] as? String == "ann.lisbon")
        #expect(try await people.bobSocket.call("change_username", ["username": "ann.lisbon"]).errorCode == "conflict")
        #expect(try await people.bobSocket.call("change_username", ["username": "b!"]).errorCode == "invalid_field")
        let profile = try await people.bobSocket.call("get_profile", ["account_id": people.annID])
        #expect((profile["fields"] as? [String: String])?["username"] == "ann.lisbon")

        // The profile's own `username` field is held to the same rules (a probe stored ESC and a taken name through it).
        for value in ["ev\u{1B}[2Jil", "b!", "ab", String(repeating: "a", count: 33), "ann lisbon"] {
            let refused = try await people.bobSocket.call("update_profile", ["fields": ["username": ["value": value, "visibility": "everyone"]]])
            #expect(refused.errorCode == "invalid_field", "\(value.debugDescription)")
        }
        let taken = try await people.bobSocket.call("update_profile", ["fields": ["username": ["value": "Ann.Lisbon", "visibility": "everyone"]]])
        #expect(taken.errorCode == "conflict")
        let unchanged = try await people.annSocket.call("get_profile", ["account_id": people.bobID])
        #expect((unchanged["fields"] as? [String: String])?["username"] == nil, "nothing refused was stored")
        #expect(try await people.bobSocket.call("update_profile", ["fields": ["username": ["value": "Bob.B", "visibility": "everyone"]]]).ok)
        let bobs = try await people.annSocket.call("get_profile", ["account_id": people.bobID])
        #expect((bobs["fields"] as? [String: String])?["username"] == "bob.b")
        // An empty value still removes it.
        #expect(try await people.bobSocket.call("update_profile", ["fields": ["username": ["value": "", "visibility": "everyone"]]]).ok)
        let removed = try await people.annSocket.call("get_profile", ["account_id": people.bobID])
        #expect((removed["fields"] as? [String: String])?["username"] == nil)
        try await people.server.stop()
    }

    @Test("rotate_keys replaces identity and auth keys, tells contacts, and the old auth key stops working")
    func rotation() async throws {
        let people = try await TwoPeople.start()
        _ = try await people.directConversation()
        let rotated = TestAccount(people.ann.email)
        #expect(try await people.annSocket.call("rotate_keys", rotated.rotateFields).ok)
        let note = try await people.bobSocket.nextNotification(named: "keys_updated")
        #expect(note["account_id"] as? Int == people.annID)
        let bundle = try await people.bobSocket.call("get_key_bundle", ["email": people.ann.email])
        #expect(bundle["identity_key"] as? String == rotated.identity.publicKey.rawRepresentation.base64EncodedString())

        let oldKeys = try people.server.connect()
        #expect(try await oldKeys.login(people.ann).errorCode == "authentication_failed")
        let newKeys = try people.server.connect()
        #expect(try await newKeys.login(rotated).ok == false)  // locked for 2 s by the failure just above
        people.server.clock.advance(milliseconds: 2_000)
        #expect(try await newKeys.login(rotated).ok)
        try await people.server.stop()
    }

    @Test("rotate_keys refuses prekeys not signed by the new identity key")
    func rotationNeedsSignedPreKeys() async throws {
        let people = try await TwoPeople.start()
        var fields = TestAccount(people.ann.email).registerFields
        fields["identity_key"] = Curve25519.Signing.PrivateKey().publicKey.rawRepresentation.base64EncodedString()
        #expect(try await people.annSocket.call("rotate_keys", fields).errorCode == "invalid_field")
        let bundle = try await people.bobSocket.call("get_key_bundle", ["email": people.ann.email])
        #expect(bundle["identity_key"] as? String == people.ann.identity.publicKey.rawRepresentation.base64EncodedString())
        try await people.server.stop()
    }

    @Test("reset_session is gone (a reset the server relays is one it could forge); remove_device refuses this device and unknown ones")
    func resetGoneAndRemove() async throws {
        let people = try await TwoPeople.start()
        _ = try await people.directConversation()
        #expect(try await people.annSocket.call("reset_session", ["account_id": people.bobID, "device_id": 1]).errorCode == "unknown_method")
        #expect(try await people.annSocket.call("remove_device", ["device_id": 1]).errorCode == "invalid_field")
        #expect(try await people.annSocket.call("remove_device", ["device_id": 7]).errorCode == "not_found")
        try await people.server.stop()
    }

    @Test("sign_out: the answer arrives, then the device is gone, its connection closed and its login refused")
    func signOut() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        let stranger = try people.server.connect()
        #expect(try await stranger.call("sign_out", [:]).errorCode == "unauthenticated")
        #expect(try await people.annSocket.call("sign_out", ["device_id": 1, "extra": String(repeating: "x", count: 1000)]).ok)
        await #expect(throws: (any Error).self, "the signed-out connection is closed") {
            _ = try await people.annSocket.call("whoami", [:])
        }
        // Bob's next envelope for ann's old device is refused as stale: nobody encrypts to it any more.
        let refused = try await people.bobSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "after-sign-out",
            "envelopes": [["account_id": people.annID, "device_id": 1, "ciphertext": "AAAA"]],
        ])
        #expect(refused.errorCode == "stale_devices", "\(refused)")
        let again = try people.server.connect()
        #expect(try await again.login(people.ann).errorCode == "authentication_failed")
        try await people.server.stop()
    }
}
