import Crypto
import Foundation
import Testing

/// The pairing relay and `add_device` at the wire, with hostile input (docs/API.md §13).
@Suite("Device pairing relay and add_device", .serialized)
struct PairingRelayTests {
    static func key() -> String { Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation.base64EncodedString() }

    static func create(_ socket: LineSocket, email: String = "ann@example.org") async throws -> (id: Int, token: String) {
        let created = try await socket.call("pairing_start", ["email": email, "device_name": "phone", "ephemeral_key": key()])
        return (try #require(created["pair_id"] as? Int), try #require(created["token"] as? String))
    }

    /// The fields of `add_device` for `account`, signed over the nonce from `login_start` device 0.
    static func addDeviceFields(_ account: TestAccount, socket: LineSocket, name: String = "phone", signer: Curve25519.Signing.PrivateKey? = nil) async throws -> [String: Any] {
        let start = try await socket.call("login_start", ["email": account.email, "device_id": 0])
        let nonce = try #require(start["nonce"] as? String)
        let message = Data("Parley-add-device-v1".utf8) + Data(base64Encoded: nonce)! + Data(account.email.utf8) + Data(name.utf8)
        var fields = account.registerFields
        fields.removeValue(forKey: "display_name")
        fields.removeValue(forKey: "identity_key")
        fields.removeValue(forKey: "auth_key")
        fields["name"] = name
        fields["nonce"] = nonce
        fields["signature"] = try (signer ?? account.auth).signature(for: message).base64EncodedString()
        return fields
    }

    @Test("the relay: only the account's devices see a pairing, only the token reads it, each step once and in order")
    func relay() async throws {
        let people = try await TwoPeople.start()
        let newDevice = try people.server.connect()
        let (id, token) = try await Self.create(newDevice)
        #expect(try await newDevice.call("pairing_wait", ["pair_id": id, "token": token])["state"] as? String == "waiting")
        let otherToken = Data(repeating: 7, count: 32).base64EncodedString()
        #expect(try await newDevice.call("pairing_wait", ["pair_id": id, "token": otherToken]).errorCode == "not_found")
        #expect(try await people.bobSocket.call("pairing_lookup", ["pair_id": id]).errorCode == "not_found")
        #expect(try await people.bobSocket.call("authorize_device", ["pair_id": id, "ephemeral_key": Self.key(), "keys": "AAAA"]).errorCode == "not_found")
        let lookup = try await people.annSocket.call("pairing_lookup", ["pair_id": id])
        #expect(lookup["device_name"] as? String == "phone" && lookup["state"] as? String == "waiting")
        #expect(try await people.annSocket.call("pairing_history_put", ["pair_id": id, "seq": 0, "chunk": "AAAA", "last": true]).errorCode == "conflict")

        let oversize = Data(repeating: 1, count: 64 * 1024 + 1).base64EncodedString()
        #expect(try await people.annSocket.call("authorize_device", ["pair_id": id, "ephemeral_key": Self.key(), "keys": oversize]).errorCode == "invalid_field")
        #expect(try await people.annSocket.call("authorize_device", ["pair_id": id, "ephemeral_key": "AAAA", "keys": "AAAA"]).errorCode == "invalid_field")
        let authorizing = Self.key()
        #expect(try await people.annSocket.call("authorize_device", ["pair_id": id, "ephemeral_key": authorizing, "keys": "c2VhbGVk"]).ok)
        #expect(try await people.annSocket.call("authorize_device", ["pair_id": id, "ephemeral_key": Self.key(), "keys": "b3RoZXI="]).errorCode == "conflict")
        let sealed = try await newDevice.call("pairing_wait", ["pair_id": id, "token": token])
        #expect(sealed["state"] as? String == "sealed" && sealed["keys"] as? String == "c2VhbGVk" && sealed["ephemeral_key"] as? String == authorizing)

        // History: in order, resumable, bounded, closed after the last chunk.
        let skipped = try await people.annSocket.call("pairing_history_put", ["pair_id": id, "seq": 1, "chunk": "AAAA", "last": false])
        #expect(skipped.errorCode == "conflict")
        #expect(((skipped["error"] as? [String: Any])?["details"] as? [String: Any])?["stored"] as? Int == 0)
        let big = Data(repeating: 2, count: 256 * 1024 + 1).base64EncodedString()
        #expect(try await people.annSocket.call("pairing_history_put", ["pair_id": id, "seq": 0, "chunk": big, "last": false]).errorCode == "invalid_field")
        #expect(try await people.annSocket.call("pairing_history_put", ["pair_id": id, "seq": 0, "chunk": "Zmlyc3Q=", "last": false])["stored"] as? Int == 1)
        #expect(try await people.annSocket.call("pairing_history_put", ["pair_id": id, "seq": 1, "chunk": "bGFzdA==", "last": true])["stored"] as? Int == 2)
        #expect(try await people.annSocket.call("pairing_history_put", ["pair_id": id, "seq": 2, "chunk": "bW9yZQ==", "last": true]).errorCode == "conflict")
        #expect(try await newDevice.call("pairing_wait", ["pair_id": id, "token": token])["state"] as? String == "ready")
        let chunk = try await newDevice.call("pairing_history_get", ["pair_id": id, "token": token, "seq": 1])
        #expect(chunk["chunk"] as? String == "bGFzdA==" && chunk["last"] as? Bool == true)
        #expect(try await newDevice.call("pairing_history_get", ["pair_id": id, "token": token, "seq": 2]).errorCode == "not_found")
        #expect(try await newDevice.call("pairing_history_get", ["pair_id": id, "token": otherToken, "seq": 0]).errorCode == "not_found")
        #expect(try await newDevice.call("pairing_finish", ["pair_id": id, "token": otherToken]).errorCode == "not_found")
        #expect(try await newDevice.call("pairing_finish", ["pair_id": id, "token": token]).ok)
        #expect(try await newDevice.call("pairing_wait", ["pair_id": id, "token": token]).errorCode == "not_found")
        try await people.server.stop()
    }

    @Test("garbage fields are refused with the field named, and nothing is stored")
    func garbage() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let cases: [([String: Any], String)] = [
            (["email": "ann@example.org", "device_name": "phone", "ephemeral_key": "AAAA"], "ephemeral_key"),
            (["email": "ann@example.org", "device_name": "", "ephemeral_key": Self.key()], "device_name"),
            (["email": "ann@example.org", "device_name": "two\nlines", "ephemeral_key": Self.key()], "device_name"),
            (["email": "ann@example.org", "device_name": String(repeating: "x", count: 65), "ephemeral_key": Self.key()], "device_name"),
            (["email": "not an address", "device_name": "phone", "ephemeral_key": Self.key()], "email"),
            (["email": "ann@example.org", "device_name": 7, "ephemeral_key": Self.key()], "device_name"),
        ]
        for (fields, field) in cases {
            let answer = try await socket.call("pairing_start", fields)
            #expect(answer.errorCode == "invalid_field" || answer.errorCode == "missing_field", "\(fields)")
            #expect("\(answer)".contains(field))
        }
        for fields: [String: Any] in [["pair_id": -1, "token": Self.key()], ["pair_id": "1", "token": Self.key()],
                                      ["pair_id": 1 << 40, "token": Self.key()], ["pair_id": 1, "token": "AAAA"], ["pair_id": 1]] {
            let answer = try await socket.call("pairing_wait", fields)
            #expect(["invalid_field", "missing_field"].contains(answer.errorCode ?? ""), "\(fields)")
        }
        #expect(try await socket.call("pairing_lookup", ["pair_id": 1]).errorCode == "unauthenticated")
        #expect(try await socket.call("ping").ok)
        try await server.stop()
    }

    @Test("four pairings per e-mail from one address and twenty from all, so a stranger cannot take every slot; pairings expire after 15 minutes")
    func limits() async throws {
        let server = try await TestServer.start()
        let stranger = try server.connect(from: "127.0.0.2")
        let first = try await Self.create(stranger)
        for _ in 0..<3 { _ = try await Self.create(stranger) }
        // A stranger, who needs no login to start a pairing for someone's address, holds four of its slots from here.
        let third = try await stranger.call("pairing_start", ["email": "ann@example.org", "device_name": "phone", "ephemeral_key": Self.key()])
        #expect(third.errorCode == "rate_limited" && third.errorMessage?.hasPrefix("too many pairings started from here") == true, "\(third)")
        #expect(third.errorDetails?["retry_after"] as? Int == 900)
        #expect(try await stranger.call("pairing_start", ["email": "bob@example.org", "device_name": "phone", "ephemeral_key": Self.key()]).ok)
        // The owner, elsewhere, still pairs; all sources together stop at twenty.
        for source in 3...6 {
            let socket = try server.connect(from: "127.0.0.\(source)")
            for _ in 0..<4 { _ = try await Self.create(socket) }
        }
        let full = try await server.connect(from: "127.0.0.7").call("pairing_start", ["email": "ann@example.org", "device_name": "phone", "ephemeral_key": Self.key()])
        #expect(full.errorCode == "rate_limited" && full.errorMessage?.hasPrefix("too many open pairings for this account") == true, "\(full)")
        server.clock.advance(milliseconds: 15 * 60 * 1000 + 1)
        let later = try server.connect(from: "127.0.0.2")
        #expect(try await later.call("pairing_wait", ["pair_id": first.id, "token": first.token]).errorCode == "not_found")
        #expect(try await later.call("pairing_start", ["email": "ann@example.org", "device_name": "phone", "ephemeral_key": Self.key()]).ok)
        try await server.stop()
    }

    @Test("add_device: signed by the auth key, prekeys by the identity key, bound to the pairing; failures lock out")
    func addDevice() async throws {
        let people = try await TwoPeople.start()
        let newDevice = try people.server.connect()
        let (id, token) = try await Self.create(newDevice)

        // Signed by someone else's key: refused, counted toward the lockout, no device appears.
        let forged = try await Self.addDeviceFields(people.ann, socket: newDevice, signer: Curve25519.Signing.PrivateKey())
        #expect(try await newDevice.call("add_device", forged).errorCode == "authentication_failed")
        // Locked out for 2 s like a failed login: not even a nonce is handed out.
        #expect(try await newDevice.call("login_start", ["email": people.ann.email, "device_id": 0]).errorCode == "authentication_failed")
        people.server.clock.advance(milliseconds: 2_000)
        // A nonce is single-use, and one issued for device 1 does not add a device.
        let start = try await newDevice.call("login_start", ["email": people.ann.email, "device_id": 1])
        var wrongNonce = try await Self.addDeviceFields(people.ann, socket: newDevice)
        wrongNonce["nonce"] = start["nonce"]
        let message = Data("Parley-add-device-v1".utf8) + Data(base64Encoded: start["nonce"] as! String)! + Data(people.ann.email.utf8) + Data("phone".utf8)
        wrongNonce["signature"] = try people.ann.auth.signature(for: message).base64EncodedString()
        #expect(try await newDevice.call("add_device", wrongNonce).errorCode == "authentication_failed")
        people.server.clock.advance(milliseconds: 4_000)

        var fields = try await Self.addDeviceFields(people.ann, socket: newDevice)
        fields["pair_id"] = id
        fields["token"] = Data(repeating: 9, count: 32).base64EncodedString()
        #expect(try await newDevice.call("add_device", fields).errorCode == "not_found")

        fields = try await Self.addDeviceFields(people.ann, socket: newDevice)
        fields["spk_signature"] = Data(repeating: 0, count: 64).base64EncodedString()
        #expect(try await newDevice.call("add_device", fields).errorCode == "invalid_field")
        #expect((try await people.annSocket.call("list_devices")["devices"] as? [Any])?.count == 1)

        fields = try await Self.addDeviceFields(people.ann, socket: newDevice)
        fields["pair_id"] = id
        fields["token"] = token
        let added = try await newDevice.call("add_device", fields)
        #expect(added["device_id"] as? Int == 2 && added["account_id"] as? Int == people.annID)
        #expect(try await newDevice.call("whoami")["device_id"] as? Int == 2)
        #expect(try await people.annSocket.nextNotification(named: "device_added")["device_id"] as? Int == 2)
        #expect(try await people.annSocket.call("pairing_lookup", ["pair_id": id])["device_id"] as? Int == 2)
        let devices = try #require(try await people.annSocket.call("list_devices")["devices"] as? [[String: Any]])
        #expect(devices.map { $0["device_id"] as? Int } == [1, 2])
        #expect(devices.allSatisfy { $0["last_seen"] is Int })
        // The same pairing cannot add a second device.
        let again = try people.server.connect()
        fields = try await Self.addDeviceFields(people.ann, socket: again)
        fields["pair_id"] = id
        fields["token"] = token
        #expect(try await again.call("add_device", fields).errorCode == "not_found")
        // A logged-in connection cannot add a device.
        #expect(try await newDevice.call("add_device", fields).errorCode == "invalid_request")
        // bob's key bundle for ann now lists both devices.
        let bundle = try await people.bobSocket.call("get_key_bundle", ["email": people.ann.email])
        #expect((bundle["devices"] as? [[String: Any]])?.compactMap { $0["device_id"] as? Int } == [1, 2])
        #expect(try await people.annSocket.call("remove_device", ["device_id": 2]).ok)
        #expect(try await people.annSocket.nextNotification(named: "device_removed")["device_id"] as? Int == 2)
        try await people.server.stop()
    }

    @Test("an account holds at most 32 devices: authorize_device and add_device past it say how to make room, and change nothing")
    func deviceLimit() async throws {
        let people = try await TwoPeople.start()
        // Device 1 is ann's; 31 more fill the account. Each socket closes when it goes out of scope.
        for number in 2...32 {
            let socket = try people.server.connect()
            let added = try await socket.call("add_device", try await Self.addDeviceFields(people.ann, socket: socket, name: "device \(number)"))
            #expect(added["device_id"] as? Int == number)
        }
        #expect((try await people.annSocket.call("list_devices")["devices"] as? [Any])?.count == 32)

        // The signed-in device is told first, when it authorizes a pairing: it is the one that can remove a device.
        let newDevice = try people.server.connect()
        let (id, token) = try await Self.create(newDevice)
        let refused = try await people.annSocket.call("authorize_device", ["pair_id": id, "ephemeral_key": Self.key(), "keys": "c2VhbGVk"])
        #expect(refused.errorCode == "quota_exceeded")
        let message = try #require((refused["error"] as? [String: Any])?["message"] as? String)
        #expect(message.contains("32 devices") && message.contains("parley devices remove"))
        #expect(try await newDevice.call("pairing_wait", ["pair_id": id, "token": token])["state"] as? String == "waiting")

        // A device that joins without a pairing (a recovery) is refused at add_device, and nothing is stored.
        let late = try await newDevice.call("add_device", try await Self.addDeviceFields(people.ann, socket: newDevice, name: "one too many"))
        #expect(late.errorCode == "quota_exceeded")
        #expect(try await newDevice.call("whoami").errorCode == "unauthenticated")
        #expect((try await people.annSocket.call("list_devices")["devices"] as? [Any])?.count == 32)
        let bundle = try await people.bobSocket.call("get_key_bundle", ["email": people.ann.email])
        #expect((bundle["devices"] as? [Any])?.count == 32)

        // Removing one makes room again, under a new id.
        #expect(try await people.annSocket.call("remove_device", ["device_id": 32]).ok)
        #expect(try await people.annSocket.call("authorize_device", ["pair_id": id, "ephemeral_key": Self.key(), "keys": "c2VhbGVk"]).ok)
        var fields = try await Self.addDeviceFields(people.ann, socket: newDevice)
        fields["pair_id"] = id
        fields["token"] = token
        #expect(try await newDevice.call("add_device", fields)["device_id"] as? Int == 33)
        try await people.server.stop()
    }
}
