import Foundation
import Testing

@Suite("Registration and login", .serialized)
struct AuthenticationTests {
    @Test("register sends a code, confirm activates, challenge-response login works")
    func happyPath() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let ann = TestAccount("ann@example.org")
        let registered = try await socket.call("register", ann.registerFields)
        #expect(registered.ok, "\(registered)")
        let code = try #require(try server.latestCode(for: ann.email))
        #expect(code.count == 8)
        let confirmed = try await socket.call("register_confirm", ["email": "ANN@example.org", "code": code])
        #expect(confirmed.ok, "\(confirmed)")
        let login = try await server.login(ann, on: socket)
        #expect(login.ok, "\(login)")
        let me = try await socket.call("whoami")
        #expect(me["account_id"] as? Int == confirmed["account_id"] as? Int)
        #expect(me["device_id"] as? Int == 1)
        try await server.stop()
    }

    @Test("a pending account cannot log in, and an active e-mail cannot be registered again (though register answers as if it could)")
    func pendingAndDuplicate() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let ann = TestAccount("ann@example.org")
        #expect(try await socket.call("register", ann.registerFields).ok)
        #expect(try await server.login(ann, on: socket).errorCode == "authentication_failed")
        let code = try #require(try server.latestCode(for: ann.email))
        #expect(try await socket.call("register_confirm", ["email": ann.email, "code": code]).ok)
        let again = try await socket.call("register", TestAccount("ann@example.org").registerFields)
        #expect(again.ok, "the same answer as for a new address: \(again)")
        #expect(try server.latestCode(for: ann.email) == code, "no new code: the owner gets a notice instead")
        let wrong = try await socket.call("register_confirm", ["email": ann.email, "code": code == "11111111" ? "22222222" : "11111111"])
        #expect(wrong.errorCode == "authentication_failed")
        #expect(wrong.errorMessage?.contains("may already have a Parley account") == true, "\(wrong)")
        #expect(try await server.login(ann, on: socket)["account_id"] != nil, "the owner's keys are unchanged")
        try await server.stop()
    }

    @Test("wrong codes slow their source, not the owner: a stranger elsewhere cannot spend the code")
    func wrongCodes() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let ann = TestAccount("ann@example.org")
        #expect(try await socket.call("register", ann.registerFields).ok)
        let code = try #require(try server.latestCode(for: ann.email))
        let wrong = code == "00000000" ? "11111111" : "00000000"
        // A stranger's guesses: four free, then a wait that every further try from there meets.
        let stranger = try server.connect(from: "127.0.0.2")
        for attempt in 1...6 {
            let response = try await stranger.call("register_confirm", ["email": ann.email, "code": wrong])
            #expect(response.errorCode == "authentication_failed")
            let wait = response.errorDetails?["retry_after"] as? Int
            switch attempt {
            case ...4: #expect(wait == nil && response.errorMessage?.hasPrefix("wrong code: check it") == true, "\(response)")
            case 5: #expect(wait == 2, "\(response)")
            default: #expect(wait != nil && response.errorMessage?.hasPrefix("too many wrong codes from here") == true, "\(response)")
            }
        }
        // Even the right code waits there, and the owner, elsewhere, is not slowed: her code still works.
        #expect(try await stranger.call("register_confirm", ["email": ann.email, "code": code]).errorCode == "authentication_failed")
        #expect(try await socket.call("register_confirm", ["email": ann.email, "code": wrong]).errorMessage?.hasPrefix("wrong code") == true)
        #expect(try await socket.call("register_confirm", ["email": ann.email, "code": code])["account_id"] != nil)
        try await server.stop()
    }

    @Test("fifty wrong codes from many sources together cancel a registration")
    func manySourcesCancel() async throws {
        let server = try await TestServer.start()
        let ann = TestAccount("ann@example.org")
        #expect(try await server.connect().call("register", ann.registerFields).ok)
        let code = try #require(try server.latestCode(for: ann.email))
        let wrong = code == "00000000" ? "11111111" : "00000000"
        var answers: [[String: Any]] = []
        for source in 1...13 {
            let socket = try server.connect(from: "127.0.1.\(source)")
            // Four from each source, the free ones: nobody is slowed, and the fiftieth cancels.
            for _ in 0..<4 where answers.count < 50 { answers.append(try await socket.call("register_confirm", ["email": ann.email, "code": wrong])) }
        }
        #expect(answers.dropLast().allSatisfy { $0.errorMessage?.hasPrefix("wrong code: check it") == true })
        #expect(answers.last?.errorMessage?.hasPrefix("too many wrong codes; register again") == true, "\(answers.last ?? [:])")
        // Cancelled: the old code is now as wrong as any (an address with no registration answers like that too).
        #expect(try await server.connect(from: "127.0.2.1").call("register_confirm", ["email": ann.email, "code": code]).errorCode == "authentication_failed")
        try await server.stop()
    }

    @Test("codes expire after 15 minutes")
    func codeExpiry() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let ann = TestAccount("ann@example.org")
        #expect(try await socket.call("register", ann.registerFields).ok)
        let code = try #require(try server.latestCode(for: ann.email))
        server.clock.advance(milliseconds: 15 * 60 * 1000 + 1)
        let response = try await socket.call("register_confirm", ["email": ann.email, "code": code])
        #expect(response.errorCode == "authentication_failed")
        #expect(response.errorMessage?.contains("expired") == true)
        try await server.stop()
    }

    @Test("prekeys with bad signatures are refused and nothing is stored")
    func badPreKeySignatures() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let ann = TestAccount("ann@example.org")
        var fields = ann.registerFields
        fields["spk_signature"] = Data(repeating: 1, count: 64).base64EncodedString()
        let response = try await socket.call("register", fields)
        #expect(response.errorCode == "invalid_field")
        #expect(response.errorMessage?.contains("spk_signature") == true)
        #expect(try server.latestCode(for: ann.email) == nil)
        var short = ann.registerFields
        short["pqspk"] = Data(repeating: 1, count: 10).base64EncodedString()
        #expect(try await socket.call("register", short).errorCode == "invalid_field")
        try await server.stop()
    }

    @Test("failed logins lock out for 2^n seconds, nonces are single-use, success resets")
    func lockout() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let ann = TestAccount("ann@example.org")
        try await server.createAccount(ann, on: socket)

        // A signature by the wrong key fails and locks for 2 s.
        let start = try await socket.call("login_start", ["email": ann.email, "device_id": 1])
        let nonce = try #require(start["nonce"] as? String)
        let forged = TestAccount(ann.email).loginSignature(nonce: nonce)
        let failed = try await socket.call("login_finish", ["email": ann.email, "device_id": 1, "nonce": nonce, "signature": forged])
        #expect(failed.errorCode == "authentication_failed")
        #expect(try await server.login(ann, on: socket).errorMessage?.contains("try again in 2 s") == true)

        // After the lockout, the used nonce does not work again.
        server.clock.advance(milliseconds: 2_000)
        let replay = try await socket.call("login_finish", [
            "email": ann.email, "device_id": 1, "nonce": nonce, "signature": ann.loginSignature(nonce: nonce),
        ])
        #expect(replay.errorCode == "authentication_failed")
        #expect(replay.errorMessage?.contains("4 s") == true)

        server.clock.advance(milliseconds: 4_000)
        #expect(try await server.login(ann, on: socket).ok)
        // Success reset the counter: one new failure locks for 2 s again, not 8.
        let next = try await socket.call("login_start", ["email": ann.email, "device_id": 1])
        let again = try await socket.call("login_finish", [
            "email": ann.email, "device_id": 1, "nonce": try #require(next["nonce"] as? String),
            "signature": forged,
        ])
        #expect(again.errorMessage?.contains("2 s") == true)
        try await server.stop()
    }

    @Test("an expired nonce does not log in")
    func nonceExpiry() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let ann = TestAccount("ann@example.org")
        try await server.createAccount(ann, on: socket)
        let start = try await socket.call("login_start", ["email": ann.email, "device_id": 1])
        let nonce = try #require(start["nonce"] as? String)
        server.clock.advance(milliseconds: 61_000)
        let late = try await socket.call("login_finish", [
            "email": ann.email, "device_id": 1, "nonce": nonce, "signature": ann.loginSignature(nonce: nonce),
        ])
        #expect(late.errorCode == "authentication_failed")
        try await server.stop()
    }

    @Test("unknown accounts get a nonce too, so login_start does not reveal who exists")
    func noEnumeration() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let ghost = try await socket.call("login_start", ["email": "nobody@example.org", "device_id": 1])
        #expect(ghost.ok)
        #expect((ghost["nonce"] as? String).flatMap { Data(base64Encoded: $0) }?.count == 32)
        try await server.stop()
    }

    @Test("during a registration surge, register demands proof of work and accepts a solved challenge once")
    func proofOfWork() async throws {
        let server = try await TestServer.start {
            $0.registrationSurgeThreshold = 1
            $0.proofOfWorkDifficulty = 8
        }
        let socket = try server.connect()
        #expect(try await socket.call("register", TestAccount("a@example.org").registerFields).ok)
        let bob = TestAccount("bob@example.org")
        let demanded = try await socket.call("register", bob.registerFields)
        #expect(demanded.errorCode == "proof_of_work_required")
        let details = try #require((demanded["error"] as? [String: Any])?["details"] as? [String: Any])
        let challengeText = try #require(details["pow_challenge"] as? String)
        #expect(details["pow_difficulty"] as? Int == 8)
        let challenge = try #require(Data(base64Encoded: challengeText))
        let nonce = try ProofOfWorkSolver.solve(Array(challenge), difficulty: 8)
        var fields = bob.registerFields
        fields["pow_challenge"] = challengeText
        fields["pow_nonce"] = nonce
        #expect(try await socket.call("register", fields).ok)
        var replay = TestAccount("carol@example.org").registerFields
        replay["pow_challenge"] = challengeText
        replay["pow_nonce"] = nonce
        #expect(try await socket.call("register", replay).errorCode == "proof_of_work_required")
        try await server.stop()
    }
}

import ParleyCrypto

enum ProofOfWorkSolver {
    static func solve(_ challenge: [UInt8], difficulty: Int) throws -> Int {
        Int(try ProofOfWork.solve(challenge: challenge, difficulty: difficulty))
    }
}
