import Foundation
import ParleyWire
import Testing

@Suite("Wire requests")
struct WireRequestTests {
    func parse(_ text: String) -> Result<WireRequest, RequestParseError> {
        WireRequest.parse(line: Array(text.utf8))
    }

    @Test("a well-formed request parses with its method, id and fields")
    func valid() throws {
        let request = try parse(#"{"type":"login_start","request_id":"r1","email":"a@b.c","device_id":3}"#).get()
        #expect(request.method == "login_start")
        #expect(request.requestID == "r1")
        #expect(try request.body.string("email") == "a@b.c")
        #expect(try request.body.integer("device_id") == 3)
    }

    @Test("garbage, non-objects and broken envelopes get precise codes", arguments: [
        ("", WireError.Code.malformedJSON, false),
        ("{", .malformedJSON, false),
        ("\u{FF}\u{FE}", .malformedJSON, false),
        ("[1,2]", .invalidRequest, false),
        ("\"hello\"", .invalidRequest, false),
        (#"{"type":"x"}"#, .invalidRequest, false),
        (#"{"type":"x","request_id":5}"#, .invalidRequest, false),
        (#"{"type":"x","request_id":""}"#, .invalidRequest, false),
        (#"{"request_id":"r"}"#, .invalidRequest, true),
        (#"{"type":7,"request_id":"r"}"#, .invalidRequest, true),
        (#"{"type":"x","request_id":"r","title":"a\u0000b"}"#, .invalidRequest, true),
        (#"{"type":"x","request_id":"r","members":["ok","\u0000"]}"#, .invalidRequest, true),
        (#"{"type":"x","request_id":"r","fields":{"k\u0000":"v"}}"#, .invalidRequest, true),
    ])
    func broken(line: String, code: WireError.Code, hasID: Bool) {
        guard case .failure(let failure) = parse(line) else {
            Issue.record("\(line) parsed")
            return
        }
        #expect(failure.error.code == code)
        #expect((failure.requestID != nil) == hasID)
    }

    @Test("invalid UTF-8 bytes are malformed JSON, not a crash")
    func invalidUTF8() {
        let line: [UInt8] = Array(#"{"type":"x","request_id":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        guard case .failure(let failure) = WireRequest.parse(line: line) else {
            Issue.record("parsed invalid UTF-8")
            return
        }
        #expect(failure.error.code == .malformedJSON)
    }

    @Test("an over-long request id is refused")
    func longID() {
        let id = String(repeating: "a", count: 129)
        guard case .failure(let failure) = parse(#"{"type":"x","request_id":"\#(id)"}"#) else {
            Issue.record("parsed")
            return
        }
        #expect(failure.error.code == .invalidRequest)
    }

    @Test("typed field accessors name the field that is missing or mistyped")
    func fieldErrors() throws {
        let request = try parse(#"{"type":"t","request_id":"r","n":"7","b":"xyz!","f":1.5,"big":-1,"huge":9223372036854775807,"s":"hi","k":"AAEC"}"#).get()
        #expect(throws: WireError.missing("absent")) { try request.body.string("absent") }
        #expect(throws: WireError.invalid("n", "must be a number, not string")) { try request.body.integer("n") }
        #expect(throws: WireError.invalid("f", "must be a whole number")) { try request.body.integer("f") }
        #expect(throws: WireError.self) { try request.body.integer("big") }
        // Past what a double holds exactly it is too large, not "a fraction" nor out of a range it seems to be in.
        #expect(throws: WireError.invalid("huge", "is too large to be carried exactly (at most 9007199254740991)")) { try request.body.integer("huge") }
        #expect(throws: WireError.invalid("b", "must be standard base64")) { try request.body.bytes("b", maxBytes: 10) }
        #expect(throws: WireError.self) { try request.body.string("s", maxBytes: 1) }
        #expect(try request.body.bytes("k", maxBytes: 3) == [0, 1, 2])
        #expect(throws: WireError.invalid("k", "must be exactly 4 bytes")) { try request.body.bytes("k", count: 4) }
        #expect(try request.body.optionalString("absent") == nil)
    }

    @Test("a request encodes to a line that parses back to the same request")
    func roundTrip() throws {
        let request = WireRequest(method: "send_message", requestID: "42", fields: ["to": "bob", "n": 3, "flags": [true, false]])
        #expect(try WireRequest.parse(line: request.encodedLine()).get() == request)
    }
}

@Suite("Wire responses and notifications")
struct WireMessageTests {
    @Test("responses and notifications have the documented shape")
    func shapes() throws {
        let ok = try WireMessage.success(requestID: "r1", fields: ["id": 5]).encodedLine()
        #expect(String(decoding: ok, as: UTF8.self) == #"{"id":5,"ok":true,"request_id":"r1","type":"response"}"# + "\n")
        let failed = try WireMessage.failure(requestID: nil, error: WireError(.malformedJSON, "bad")).encodedLine()
        #expect(String(decoding: failed, as: UTF8.self)
            == #"{"error":{"code":"malformed_json","message":"bad"},"ok":false,"request_id":null,"type":"response"}"# + "\n")
        let note = try WireMessage.notification(event: "user_online", fields: ["user": "a"]).encodedLine()
        #expect(String(decoding: note, as: UTF8.self) == #"{"event":"user_online","type":"notification","user":"a"}"# + "\n")
    }

    @Test("every message parses back to itself")
    func roundTrip() throws {
        let messages: [WireMessage] = [
            .success(requestID: "a", fields: ["x": "y"]),
            .failure(requestID: "b", error: WireError(.notFound, "no such conversation")),
            .failure(requestID: nil, error: WireError(.lineTooLong, "line over 1048576 bytes")),
            .notification(event: "new_message", fields: ["id": 9]),
        ]
        for message in messages {
            #expect(try WireMessage.parse(line: message.encodedLine().dropLast()) == message)
        }
    }

    @Test("garbage from a server is an error, not a crash")
    func garbage() {
        for line in ["", "[]", "{}", #"{"type":"response"}"#, #"{"type":"notification"}"#, #"{"type":"response","ok":false}"#] {
            #expect(throws: WireError.self) { try WireMessage.parse(line: Array(line.utf8)) }
        }
    }

    @Test("the largest request, a message for 1,024 devices, is within the value budget; a line of more values is refused by name")
    func valueBudget() throws {
        let envelopes = (0..<API.SendMessage.maximumEnvelopes).map { (index: Int) -> API.Envelope in
            let account = Int64(index / 8 + 1), device = UInt32(index % 8 + 1)
            return API.Envelope(accountID: account, deviceID: device, ciphertext: [0x42])
        }
        let send = API.SendMessage.Request(conversationID: 1, clientMessageID: "c", envelopes: envelopes)
        let line = try WireRequest(method: API.SendMessage.name, requestID: "r", fields: send.fields).encodedLine()
        let parsed = try WireRequest.parse(line: line).get()
        #expect(try API.SendMessage.Request(from: parsed.body).envelopes.count == API.SendMessage.maximumEnvelopes)

        let zeros = "[" + Array(repeating: "0", count: WireRequest.maximumValues).joined(separator: ",") + "]"
        let over = Array(#"{"type":"ping","request_id":"r","pad":\#(zeros)}"#.utf8)
        guard case .failure(let failure) = WireRequest.parse(line: over) else { Issue.record("a line over the budget parsed"); return }
        #expect(failure.error.code == .invalidRequest)
        #expect(failure.error.message == "a request may hold at most 65536 JSON values")
        // The same text with the padding one value shorter is within it (the object, type, request_id, pad's array).
        let under = "[" + Array(repeating: "0", count: WireRequest.maximumValues - 4).joined(separator: ",") + "]"
        #expect(throws: Never.self) { try WireRequest.parse(line: Array(#"{"type":"ping","request_id":"r","pad":\#(under)}"#.utf8)).get() }
    }

    @Test("a literal backslash-u0000 in text is not a NUL and passes")
    func escapedBackslashIsText() throws {
        let request = try WireRequest.parse(line: Array(#"{"type":"send","request_id":"r","text":"see \\u0000 in C"}"#.utf8)).get()
        #expect(try request.body.string("text") == #"see \u0000 in C"#)
    }
}
