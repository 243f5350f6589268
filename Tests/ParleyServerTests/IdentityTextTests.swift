import Foundation
import Testing

/// Issue 20 §5: addresses look like what they are, and names carry no terminal controls. Over a real socket.
@Suite("Identities that look like what they are", .serialized)
struct IdentityTextTests {
    @Test("an NFD spelling and a capitalised domain reach the NFC account; the owner logs in with either")
    func oneSpellingPerAddress() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let nfc = "jos\u{E9}@example.org"
        let owner = TestAccount(nfc)
        try await server.createAccount(owner, on: socket)

        let nfd = "jose\u{301}@EXAMPLE.org"
        let twin = try await socket.call("register", TestAccount(nfd).registerFields)
        #expect(twin.ok, "answers as for any address")
        let log = try String(contentsOf: server.directory.appendingPathComponent("dev-codes.log"), encoding: .utf8)
        #expect(log.contains("# \(nfc) registration-attempt"), "the NFD spelling is the same account")
        #expect(try await server.login(owner, on: try server.connect())["account_id"] != nil)
        let start = try await socket.call("login_start", ["email": nfd, "device_id": 1])
        let nonce = try #require(start["nonce"] as? String)
        let finish = try await socket.call("login_finish", [
            "email": nfd, "device_id": 1, "nonce": nonce, "signature": owner.loginSignature(nonce: nonce),
        ])
        #expect(finish["account_id"] != nil, "\(finish)")
        try await server.stop()
    }

    @Test("addresses with bidi controls, invisible characters, controls or spaces are refused in plain words")
    func hiddenCharactersRefused() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let cases: [(String, String)] = [
            ("ann\u{202E}gro.elpmaxe@example.org", "bidi"), ("an\u{200B}n@example.org", "invisible"),
            ("ann@exa\u{FEFF}mple.org", "invisible"), ("an\u{AD}n@example.org", "invisible"),
            ("ann\u{2066}@example.org", "bidi"), ("ann\u{200F}@example.org", "bidi"), ("ann\u{61C}@example.org", "bidi"),
            ("an\u{2060}n@example.org", "invisible"), ("ann\u{85}@example.org", "control"), ("an\u{1B}n@example.org", "control"),
            ("an\u{A0}n@example.org", "spaces"), ("an\u{3164}n@example.org", "invisible"),
        ]
        for (email, word) in cases {
            let answer = try await socket.call("register", TestAccount(email).registerFields)
            #expect(answer.errorCode == "invalid_field", "\(email.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(answer.errorMessage?.contains(word) == true, "\(answer)")
        }
        #expect(!FileManager.default.fileExists(atPath: server.directory.appendingPathComponent("dev-codes.log").path), "nothing was registered")
        #expect(try await socket.call("register", TestAccount("ann@example.org").registerFields).ok, "a plain address still registers")
        try await server.stop()
    }

    @Test("an address mixing Latin, Greek or Cyrillic letters in one part is refused; each script alone, and across parts, passes")
    func lookAlikeScriptsRefused() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        let refused: [(String, String)] = [
            ("\u{430}nn@example.org", "Latin and Cyrillic"),          // Cyrillic а, then Latin nn
            ("ann@ex\u{430}mple.org", "Latin and Cyrillic"),          // the domain's label
            ("ann@example.\u{43E}rg", "Latin and Cyrillic"),          // the top-level label
            ("p\u{3B1}ul@example.org", "Latin and Greek"),            // Greek alpha
            ("\u{3BF}\u{43E}o@example.org", "Latin, Greek and Cyrillic"),
        ]
        for (email, words) in refused {
            let answer = try await socket.call("register", TestAccount(email).registerFields)
            #expect(answer.errorCode == "invalid_field", "\(email)")
            #expect(answer.errorMessage?.contains("must not mix \(words) letters") == true, "\(answer)")
        }
        #expect(!FileManager.default.fileExists(atPath: server.directory.appendingPathComponent("dev-codes.log").path), "nothing was registered")
        // One script per part is an address, whatever the script; digits and marks belong to none.
        for email in ["\u{438}\u{432}\u{430}\u{43D}@\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}.\u{440}\u{444}",
                      "\u{3B5}\u{3BB}\u{3B5}\u{3BD}\u{3B7}@example.org", "jos\u{E9}2@example.org", "ann@xn--exmple-4nf.org", "\u{5F20}@example.org"] {
            #expect(try await socket.call("register", TestAccount(email).registerFields).ok, "\(email)")
        }
        try await server.stop()
    }

    @Test("a part written only in Greek or Cyrillic letters that look Latin is refused, saying what it reads as; one letter that does not look Latin lets it pass")
    func wholeScriptLookAlikesRefused() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        #expect(try await socket.call("register", TestAccount("ace@example.org").registerFields).ok)
        let refused: [(String, String)] = [
            ("\u{430}\u{441}\u{435}@example.org", "reads as ace"),            // асе: Cyrillic a, es, ie
            ("\u{440}\u{430}\u{443}2@example.org", "reads as pay2"),          // рау2: a digit belongs to no script
            ("ann@\u{435}\u{445}\u{430}.org", "reads as exa"),                 // a label of the domain
            ("\u{3BF}\u{3C1}\u{3B1}@example.org", "reads as opa"),            // Greek omicron, rho, alpha
            ("\u{455}\u{43E}-\u{43E}@example.org", "reads as so-o"),          // ѕо-о: a hyphen is kept
        ]
        for (email, words) in refused {
            let answer = try await socket.call("register", TestAccount(email).registerFields)
            #expect(answer.errorCode == "invalid_field", "\(email)")
            #expect(answer.errorMessage?.contains(words) == true && answer.errorMessage?.contains("look Latin") == true, "\(answer)")
        }
        let codes = try String(contentsOf: server.directory.appendingPathComponent("dev-codes.log"), encoding: .utf8)
        #expect(codes.split(separator: "\n").count == 1, "only ace@example.org was registered")
        // Cyrillic and Greek names with a letter that looks like no Latin one are addresses like any other.
        for email in ["\u{441}\u{435}\u{440}\u{433}\u{435}\u{439}@example.org",      // сергей: й
                      "\u{434}\u{430}\u{440}\u{44C}\u{44F}@\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}.\u{440}\u{444}",  // дарья@пример.рф
                      "\u{3C6}\u{3C9}\u{3C2}@example.org"] {                            // φως
            #expect(try await socket.call("register", TestAccount(email).registerFields).ok, "\(email)")
        }
        try await server.stop()
    }

    @Test("an address written with stand-ins for plain characters (full-width, ligatures, superscripts) is refused, naming the plain one")
    func compatibilityFormsRefused() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        _ = try await socket.call("register", TestAccount("ann@example.org").registerFields)
        for (email, plain) in [("\u{FF41}nn@example.org", "ann@example.org"), ("\u{FB01}n@example.org", "fin@example.org"),
                               ("ann\u{B2}@example.org", "ann2@example.org"), ("ann@\u{FF45}xample.org", "ann@example.org")] {
            let answer = try await socket.call("register", TestAccount(email).registerFields)
            #expect(answer.errorCode == "invalid_field", "\(email)")
            #expect(answer.errorMessage?.contains("stand-ins") == true && answer.errorMessage?.contains(plain) == true, "\(answer)")
        }
        let codes = try String(contentsOf: server.directory.appendingPathComponent("dev-codes.log"), encoding: .utf8)
        #expect(codes.split(separator: "\n").count == 1, "only the plain address was registered")
        try await server.stop()
    }

    @Test("display and device names refuse C0 and C1 control characters; ordinary names pass")
    func namesWithoutControls() async throws {
        let server = try await TestServer.start()
        let socket = try server.connect()
        for name in ["Ann\u{1B}[2J", "Ann\u{9B}31m", "Ann\u{8}\u{8}Bob", "Ann\nBob"] {
            var fields = TestAccount("ann@example.org").registerFields
            fields["display_name"] = name
            let answer = try await socket.call("register", fields)
            #expect(answer.errorCode == "invalid_field")
            #expect(answer.errorMessage?.contains("control characters") == true, "\(answer)")
            // The first device's name is held to the same rule as a device added later.
            var device = TestAccount("ann@example.org").registerFields
            device["device_name"] = name
            let refused = try await socket.call("register", device)
            #expect(refused.errorCode == "invalid_field" && refused.errorMessage?.contains("device_name") == true, "\(refused)")
        }
        var blank = TestAccount("ann@example.org").registerFields
        blank["device_name"] = "   "
        #expect(try await socket.call("register", blank).errorCode == "invalid_field")
        let ann = TestAccount("ann@example.org")
        try await server.createAccount(ann, on: socket)
        _ = try await server.login(ann, on: socket)
        #expect(try await socket.call("update_profile", ["display_name": "Ann\u{7}"]).errorCode == "invalid_field")
        #expect(try await socket.call("update_profile", ["display_name": "Anne-Marie Ōtsuka 🌿"]).ok)
        try await server.stop()
    }
}
