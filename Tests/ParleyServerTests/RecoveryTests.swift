import Crypto
import Foundation
import ParleyCrypto
import Testing

/// `recovery_start` and `recovery_finish` at the wire (docs/API.md §3), with hostile input.
@Suite("Key recovery by e-mailed code", .serialized)
struct RecoveryTests {
    /// Ann keeps a key envelope on the server; returns it (base64).
    static func storeEnvelope(_ people: TwoPeople) async throws -> String {
        let envelope = try KeyEnvelope.seal(Array(repeating: 7, count: 64), password: "ann's password", iterations: 210_000)
        let encoded = Data(envelope.bytes).base64EncodedString()
        #expect(try await people.annSocket.call("change_password", ["key_envelope": encoded]).ok)
        return encoded
    }

    @Test("the right code returns the envelope once; wrong codes count down and cancel; the answer never reveals who exists")
    func codeThenEnvelope() async throws {
        let people = try await TwoPeople.start()
        let envelope = try await Self.storeEnvelope(people)
        let socket = try people.server.connect()
        let before = try people.server.latestCode(for: people.ann.email)

        let started = try await socket.call("recovery_start", ["email": "Ann@Example.org "])
        #expect(started["status"] as? String == "code_sent")
        #expect(started["expires_in"] as? Int == 900)
        let code = try #require(try people.server.latestCode(for: people.ann.email))
        #expect(code != before)
        // A second request within the minute does not send another mail.
        let again = try await socket.call("recovery_start", ["email": people.ann.email])
        #expect(again.errorCode == "rate_limited")
        // register_confirm cannot be used to burn the recovery code's tries.
        #expect(try await socket.call("register_confirm", ["email": people.ann.email, "code": "00000000"]).errorCode == "authentication_failed")

        let wrong = try await socket.call("recovery_finish", ["email": people.ann.email, "code": code == "11111111" ? "22222222" : "11111111"])
        #expect(wrong.errorCode == "authentication_failed")
        #expect(wrong.errorMessage?.hasPrefix("wrong code: check it") == true, "\(wrong)")
        let finished = try await socket.call("recovery_finish", ["email": people.ann.email, "code": code])
        #expect(finished["key_envelope"] as? String == envelope)
        #expect(finished["account_id"] as? Int == people.annID)
        #expect(finished["identity_key"] as? String == people.ann.identity.publicKey.rawRepresentation.base64EncodedString())
        // Still good (a mistyped password tries again) until a device joins with the keys.
        #expect(try await socket.call("recovery_finish", ["email": people.ann.email, "code": code])["key_envelope"] as? String == envelope)

        // Bob keeps no envelope, nobody has carol's address: same answer, no mail.
        for email in [people.bob.email, "carol@example.org"] {
            let quiet = try await socket.call("recovery_start", ["email": email])
            #expect(quiet["status"] as? String == "code_sent")
            #expect(try people.server.latestCode(for: email) == nil || email == people.bob.email)
            #expect(try await socket.call("recovery_finish", ["email": email, "code": "12345678"]).errorCode == "not_found")
        }
        try await people.server.stop()
    }

    @Test("a stranger's wrong codes slow the stranger; fifty from everywhere cancel the recovery; garbage, oversize and missing fields are refused")
    func wrongCodesAndGarbage() async throws {
        let people = try await TwoPeople.start()
        _ = try await Self.storeEnvelope(people)
        let socket = try people.server.connect()
        #expect(try await socket.call("recovery_start", ["email": people.ann.email])["status"] as? String == "code_sent")
        let code = try #require(try people.server.latestCode(for: people.ann.email))
        let wrongCode = code == "99999999" ? "88888888" : "99999999"
        let stranger = try people.server.connect(from: "127.0.0.2")
        for attempt in 1...5 {
            let answer = try await stranger.call("recovery_finish", ["email": people.ann.email, "code": wrongCode])
            #expect(answer.errorCode == "authentication_failed")
            // Four free slips, then the stranger waits.
            #expect((answer.errorDetails?["retry_after"] != nil) == (attempt == 5), "\(answer)")
        }
        #expect(try await stranger.call("recovery_finish", ["email": people.ann.email, "code": code]).errorMessage?
            .hasPrefix("too many wrong codes from here") == true)
        // The owner, elsewhere, still holds a good code.
        #expect(try await socket.call("recovery_finish", ["email": people.ann.email, "code": code])["key_envelope"] != nil)
        var answers: [[String: Any]] = []
        for source in 1...12 {
            let guesser = try people.server.connect(from: "127.0.1.\(source)")
            for _ in 0..<4 where answers.count < 45 { answers.append(try await guesser.call("recovery_finish", ["email": people.ann.email, "code": wrongCode])) }
        }
        #expect(answers.last?.errorMessage?.contains("too many wrong codes; ask for a new one") == true, "\(answers.last ?? [:])")
        #expect(try await socket.call("recovery_finish", ["email": people.ann.email, "code": code]).errorCode == "not_found")

        for fields: [String: Any] in [
            [:], ["email": 7], ["email": "no-at-sign"], ["email": "ann@example.org\r\nBcc: x@y.z"],
            ["email": String(repeating: "a", count: 300) + "@example.org"],
        ] {
            let code = try await socket.call("recovery_start", fields).errorCode
            #expect(code == (fields["email"] == nil ? "missing_field" : "invalid_field"), "\(fields)")
        }
        for fields: [String: Any] in [
            ["email": people.ann.email], ["email": people.ann.email, "code": 12345678],
            ["email": people.ann.email, "code": String(repeating: "1", count: 17)],
        ] {
            let code = try await socket.call("recovery_finish", fields).errorCode
            #expect(code == (fields["code"] == nil ? "missing_field" : "invalid_field"), "\(fields)")
        }
        // The account itself is untouched: ann's device still logs in.
        #expect(try await people.server.connect().login(people.ann)["account_id"] as? Int == people.annID)
        try await people.server.stop()
    }
}
