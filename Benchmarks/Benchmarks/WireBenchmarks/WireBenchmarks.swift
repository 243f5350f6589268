import Benchmark
import Foundation
import ParleyWire

/// The lines a server reads and writes most, shaped as the clients send them (docs/API.md §6): a 1:1 message
/// with its envelopes for two devices of the recipient and one of the sender, and a page of 100 such messages.
enum WireLines {
    static func base64(_ count: Int, _ seed: UInt8) -> String { Data((0..<count).map { UInt8(truncatingIfNeeded: Int($0) &* 31) ^ seed }).base64EncodedString() }

    static func envelope(_ account: Int, _ device: Int, _ seed: UInt8) -> String {
        #"{"account_id":\#(account),"device_id":\#(device),"ciphertext":"\#(base64(420, seed))"}"#
    }

    /// `send_message`: three envelopes of 420 bytes (a 256-byte text, padded and ratcheted).
    static let sendMessage = Array(
        (#"{"type":"send_message","request_id":"4711","conversation_id":12,"client_message_id":"\#(base64(16, 9))","#
            + #""envelopes":[\#(envelope(7, 1, 1)),\#(envelope(7, 2, 2)),\#(envelope(3, 1, 3))]}"#).utf8)

    /// An answer to `get_messages`: 100 messages, each with its envelope for this device.
    static let messagePage: [UInt8] = {
        let messages = (0..<100).map { index in
            #"{"message_id":\#(1_000 + index),"conversation_id":12,"sender_id":3,"sender_device":1,"timestamp":\#(1_800_000_000_000 + index),"#
                + #""ciphertext":"\#(base64(420, UInt8(index)))"}"#
        }
        return Array(#"{"ok":true,"request_id":"9","messages":[\#(messages.joined(separator: ","))],"more":false}"#.utf8)
    }()
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.throughput, .wallClock, .cpuTotal, .mallocCountTotal]
    let kilo = Benchmark.Configuration(metrics: metrics, scalingFactor: .kilo)

    // Each pair: Parley's parser and writer, then Foundation's JSONSerialization (the peer) on the same bytes.
    Benchmark("JSONParser: send_message line", configuration: kilo) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try JSONParser.parse(WireLines.sendMessage, maximumValues: WireRequest.maximumValues)) }
    }
    Benchmark("JSONSerialization: send_message line", configuration: kilo) { benchmark in
        let data = Data(WireLines.sendMessage)
        for _ in benchmark.scaledIterations { blackHole(try JSONSerialization.jsonObject(with: data)) }
    }
    Benchmark("JSONParser: get_messages page of 100", configuration: .init(metrics: metrics)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try JSONParser.parse(WireLines.messagePage, maximumValues: 1 << 20)) }
    }
    Benchmark("JSONSerialization: get_messages page of 100", configuration: .init(metrics: metrics)) { benchmark in
        let data = Data(WireLines.messagePage)
        for _ in benchmark.scaledIterations { blackHole(try JSONSerialization.jsonObject(with: data)) }
    }
    Benchmark("JSONWriter: get_messages page of 100", configuration: .init(metrics: metrics)) { benchmark in
        let value = try JSONParser.parse(WireLines.messagePage).value
        for _ in benchmark.scaledIterations { blackHole(try JSONWriter.bytes(value)) }
    }
    // What the server writes: the typed answer, its ciphertexts as bytes (base64 written by JSONWriter).
    Benchmark("WireMessage: typed get_messages answer of 100, as the server writes it", configuration: .init(metrics: metrics)) { benchmark in
        let messages = (0..<100).map { index in
            API.StoredMessage(
                messageID: 1_000 + Int64(index), conversationID: 12, senderID: 3, senderDevice: 1, timestamp: 1_800_000_000_000 + Int64(index),
                kind: "text", ciphertext: (0..<420).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ UInt8(index) })
        }
        let answer = WireMessage.success(requestID: "9", fields: API.GetMessages.Response(messages: messages, hasMore: false).fields)
        for _ in benchmark.scaledIterations { blackHole(try answer.encodedLine()) }
    }
    Benchmark("JSONSerialization write: get_messages page of 100", configuration: .init(metrics: metrics)) { benchmark in
        let object = try JSONSerialization.jsonObject(with: Data(WireLines.messagePage))
        for _ in benchmark.scaledIterations { blackHole(try JSONSerialization.data(withJSONObject: object)) }
    }
}
