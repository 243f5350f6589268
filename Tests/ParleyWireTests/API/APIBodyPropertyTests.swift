import Foundation
import ParleyTestSupport
import ParleyWire
import Testing

/// Every typed request, response and notification body against random objects built from its own field names:
/// reading never traps, fails only with a WireError naming a field, and what reads writes only its listed fields
/// and reads back to the same value (the fuzz target `wire-api` runs the same property coverage-guided).
@Suite("API bodies under random input")
struct APIBodyPropertyTests {
    /// Values of every JSON type, in- and out-of-range, well- and ill-formed base64, nested lists and objects.
    static func randomValue(_ random: inout SplitMix64, depth: Int = 0) -> JSONValue {
        let bytes = { (count: Int, random: inout SplitMix64) -> JSONValue in
            .base64((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
        switch Int.random(in: 0..<18, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .int(Int64.random(in: 0...1_000, using: &random))
        case 3: return .int(Int64.random(in: -5...0, using: &random))
        case 4: return .number(Double(UInt64.random(in: 0...UInt64.max, using: &random)))
        case 5: return .number(1.5)
        case 6: return .string(["", "text", "a@b.c", "everyone", "contacts", "direct", "group", "👍", "\u{1B}[31m", "AAAA"][Int.random(in: 0..<10, using: &random)])
        case 7: return bytes(32, &random)
        case 8: return bytes(64, &random)
        case 9: return bytes(Int.random(in: 0...80, using: &random), &random)
        case 10: return .string("not base64!")
        case 11: return .int(Int64(UInt32.max) + Int64.random(in: -1...1, using: &random))
        case 12 where depth < 2, 13 where depth < 2:
            return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in randomObject(&random, depth: depth + 1) })
        case 14 where depth < 2:
            return randomObject(&random, depth: depth + 1)
        case 15 where depth < 2:
            return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in randomValue(&random, depth: depth + 1) })
        default: return .int(Int64.random(in: 1...100, using: &random))
        }
    }

    /// Field names that nested bodies of the API use, so lists of objects sometimes read.
    static let nestedNames = [
        "account_id", "device_id", "ciphertext", "id", "key", "value", "visibility", "ts", "data", "conversation_id",
        "message_id", "emoji", "name", "created_at", "since",
    ]

    static func randomObject(_ random: inout SplitMix64, depth: Int, names: [String] = nestedNames) -> JSONValue {
        var object: [String: JSONValue] = [:]
        for name in names where Int.random(in: 0..<4, using: &random) > 0 { object[name] = randomValue(&random, depth: depth) }
        return .object(object)
    }

    static func plain(_ names: [String]) -> [String] { names.map { $0.hasSuffix("?") ? String($0.dropLast()) : $0 } }

    /// Reads random objects as `B`; returns how many read. A property that fails is recorded.
    static func exercise<B: WireBody>(_ body: B.Type, _ label: String, seed: UInt64, rounds: Int) -> Int {
        var random = SplitMix64(state: seed)
        var read = 0
        for _ in 0..<rounds {
            guard case .object(let object) = randomObject(&random, depth: 0, names: plain(B.fieldNames) + ["unknown"]) else { continue }
            let value: B
            do {
                value = try B(from: WireFields(object))
            } catch {
                #expect(error.code == .missingField || error.code == .invalidField, "\(label): \(error)")
                continue
            }
            read += 1
            let written = value.fields
            #expect(Set(written.keys).isSubset(of: plain(B.fieldNames)), "\(label) writes \(written.keys.sorted())")
            let line = try? JSONWriter.bytes(.object(written))
            guard let line, case .object(let parsed)? = try? JSONParser.parse(line).value else {
                Issue.record("\(label): what it wrote is not a JSON object"); continue
            }
            #expect((try? B(from: WireFields(parsed))) == value, "\(label): a write/read round trip changed the value")
        }
        return read
    }

    static func exercise<M: APIMethod>(_ method: M.Type, seed: UInt64) -> (request: Int, response: Int) {
        (exercise(M.Request.self, "\(M.name) request", seed: seed, rounds: 300), exercise(M.Response.self, "\(M.name) response", seed: seed ^ 1, rounds: 300))
    }

    @Test("every method's request and response: random objects read or fail in words; what reads round-trips")
    func methods() {
        var neverRead: [String] = []
        for (index, method) in API.methods.enumerated() {
            let (request, response) = Self.exercise(method, seed: UInt64(index) &* 0x9E37)
            if request == 0 { neverRead.append("\(method.name) request") }
            if response == 0 { neverRead.append("\(method.name) response") }
        }
        // Bodies whose every field must be right at once rarely read from random values; most must read sometimes,
        // or this test proves little about them.
        #expect(neverRead.count <= API.methods.count / 2, "these never read from random input: \(neverRead)")
    }

    @Test("every notification: random objects read or fail in words; what reads round-trips")
    func events() {
        var random = SplitMix64(state: 0xE7E7)
        var read = 0
        for entry in ServerEvent.catalog {
            for _ in 0..<300 {
                guard case .object(let object) = Self.randomObject(&random, depth: 0, names: Self.plain(entry.fieldNames)) else { continue }
                let event: ServerEvent?
                do {
                    event = try ServerEvent(name: entry.name, fields: object)
                } catch {
                    #expect(error.code == .missingField || error.code == .invalidField)
                    continue
                }
                guard let event else { Issue.record("\(entry.name) is not known"); continue }
                read += 1
                #expect(event.name == entry.name)
                #expect((try? ServerEvent(name: entry.name, fields: event.fields)) == event, "\(entry.name) changed in a round trip")
            }
        }
        #expect(read > 0)
    }
}
