import Foundation
import Testing

/// Issue 20 §3: a stranger cannot tell from `register`, `register_confirm` or reading routes who has an account.
@Suite("No enumeration of accounts", .serialized)
struct EnumerationTests {
    /// An answer without its request id, for comparing two answers' shape and content.
    static func comparable(_ answer: [String: Any]) -> NSDictionary {
        var answer = answer
        answer["request_id"] = nil
        return answer as NSDictionary
    }

    @Test("register answers alike for an existing and a new address, on both backends; the owner is told", arguments: StoreBackend.allCases)
    func registerAnswersAlike(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let stranger = try people.server.connect(from: "127.0.0.2")
        let existing = try await stranger.call("register", TestAccount(people.ann.email).registerFields)
        let fresh = try await stranger.call("register", TestAccount("nobody@example.org").registerFields)
        #expect(existing.ok && fresh.ok)
        #expect(Self.comparable(existing) == Self.comparable(fresh), "\(existing) vs \(fresh)")
        let log = try String(contentsOf: people.server.directory.appendingPathComponent("dev-codes.log"), encoding: .utf8)
        #expect(log.contains("# \(people.ann.email) registration-attempt"), "the owner hears of it")

        // Confirming: a wrong code for the existing address reads as one for an address nobody registered.
        let confirmExisting = try await stranger.call("register_confirm", ["email": people.ann.email, "code": "12345678"])
        let confirmNobody = try await stranger.call("register_confirm", ["email": "never@example.org", "code": "12345678"])
        #expect(Self.comparable(confirmExisting) == Self.comparable(confirmNobody), "\(confirmExisting) vs \(confirmNobody)")
        #expect(confirmExisting.errorMessage?.hasPrefix("wrong code: check it") == true)

        #expect(try await people.server.login(people.ann, on: try people.server.connect())["account_id"] != nil, "the owner is unaffected")
        try await people.server.stop()
    }

    @Test("recovery_start answers alike, its minute's limit included, for an account with a key envelope, one without, and nobody")
    func recoveryAnswersAlike() async throws {
        let people = try await TwoPeople.start()
        _ = try await RecoveryTests.storeEnvelope(people)
        let stranger = try people.server.connect(from: "127.0.0.2")
        var answers: [String: [NSDictionary]] = [:]
        for email in [people.ann.email, people.bob.email, "nobody@example.org"] {
            answers[email] = [
                Self.comparable(try await stranger.call("recovery_start", ["email": email])),
                Self.comparable(try await stranger.call("recovery_start", ["email": email])),
            ]
        }
        // The first of each is sent (or said to be), the second meets the limit: the same pair for all three.
        #expect(answers[people.ann.email] == answers[people.bob.email] && answers[people.bob.email] == answers["nobody@example.org"], "\(answers)")
        #expect((answers["nobody@example.org"]?[1]["error"] as? [String: Any])?["code"] as? String == "rate_limited")
        // After the minute, asking again works for everyone alike.
        people.server.clock.advance(milliseconds: 61_000)
        #expect(try await stranger.call("recovery_start", ["email": "nobody@example.org"])["status"] as? String == "code_sent")
        #expect(try await stranger.call("recovery_start", ["email": people.ann.email])["status"] as? String == "code_sent")
        try await people.server.stop()
    }

    @Test("reading someone's routes answers alike for no such account and one that shares nothing")
    func routesAnswerAlike() async throws {
        let people = try await TwoPeople.start()
        _ = try await people.annSocket.call("start_route")
        let notShared = try await people.bobSocket.call("get_route", ["owner_id": people.annID])
        let nobody = try await people.bobSocket.call("get_route", ["owner_id": 999_999])
        #expect(notShared.errorCode == "not_found")
        #expect(Self.comparable(notShared) == Self.comparable(nobody), "\(notShared) vs \(nobody)")
        try await people.server.stop()
    }
}
