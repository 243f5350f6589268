/// NATS, in two modes. Core NATS: each connection subscribes to its own subject `b.INDEX` and publishes to its
/// partner's; nothing is stored or acknowledged. JetStream (the durable peer): every `b.*` subject goes into one
/// stream kept in files, a publication is acknowledged once the stream has it, and each connection takes its
/// messages from a push consumer of its own subject, delivered to `d.INDEX`.
package struct NATSDialect: PeerDialect {
    package static let streamName = "BENCH"

    private let index: Int
    private let jetStream: Bool
    private var framer = NATSFramer()
    private var ready = false

    package init(index: Int, jetStream: Bool) {
        self.index = index
        self.jetStream = jetStream
    }

    package var acknowledges: Bool { jetStream }
    private var address: String { "b.\(index)" }
    private var inbox: String { "_INBOX.\(index)" }

    package mutating func opening() -> [UInt8] {
        var text = #"CONNECT {"verbose":false,"pedantic":false,"echo":false,"headers":false}"# + "\r\n"
        guard jetStream else { return Array((text + "SUB \(address) 1\r\nPING\r\n").utf8) }
        // Every connection asks for the stream; asking again for the same stream is allowed.
        text += "SUB d.\(index) 1\r\nSUB \(inbox).* 2\r\n"
        let stream = #"{"name":"\#(Self.streamName)","subjects":["b.*"],"storage":"file"}"#
        return Array(text.utf8) + Self.publish("$JS.API.STREAM.CREATE.\(Self.streamName)", replyTo: "\(inbox).stream", Array(stream.utf8))
    }

    package mutating func read(_ bytes: [UInt8]) throws(PeerWireError) -> [PeerEvent] {
        var events: [PeerEvent] = []
        for operation in try framer.feed(bytes) {
            switch operation {
            case .info, .ok: break
            case .ping: events.append(.answer(Array("PONG\r\n".utf8)))
            case .pong:
                if !ready {
                    ready = true
                    events.append(.ready(address: address))
                }
            case .error(let text): throw PeerWireError("the NATS server answered an error: \(text)")
            case .message(let subject, _, let payload): events += try message(subject: subject, payload: payload)
            }
        }
        return events
    }

    package mutating func publish(id: Int, size: Int, to address: String) -> [UInt8] {
        Self.publish(address, replyTo: jetStream ? "\(inbox).\(id)" : nil, PeerPayload.make(id: id, size: size))
    }

    private func message(subject: String, payload: [UInt8]) throws(PeerWireError) -> [PeerEvent] {
        let text = { String(decoding: payload, as: UTF8.self) }
        if subject == address || subject == "d.\(index)" {
            guard let id = PeerPayload.id(in: payload) else { throw PeerWireError("a NATS message that is not the benchmark's") }
            return [.delivered(id: id)]
        }
        guard jetStream, subject.hasPrefix(inbox + ".") else { throw PeerWireError("a NATS message on \(subject), which nothing asked for") }
        let what = subject.dropFirst(inbox.count + 1)
        let failed = payload.count < 4096 && text().contains(#""error""#)
        switch what {
        case "stream":
            guard !failed || text().contains("already in use") else { throw PeerWireError("JetStream refused the stream: \(text())") }
            let consumer = #"{"stream_name":"\#(Self.streamName)","config":{"deliver_subject":"d.\#(index)","filter_subject":"\#(address)","ack_policy":"none","deliver_policy":"new"}}"#
            return [.answer(Self.publish("$JS.API.CONSUMER.CREATE.\(Self.streamName)", replyTo: "\(inbox).consumer", Array(consumer.utf8)))]
        case "consumer":
            guard !failed else { throw PeerWireError("JetStream refused the consumer: \(text())") }
            return [.answer(Array("PING\r\n".utf8))]
        default:
            guard let id = Int(what) else { throw PeerWireError("a NATS message on \(subject), which nothing asked for") }
            return [failed ? .refused(id: id, reason: "jetstream") : .acknowledged(id: id)]
        }
    }

    /// `PUB subject [reply-to] size`, then the payload.
    private static func publish(_ subject: String, replyTo: String?, _ payload: [UInt8]) -> [UInt8] {
        let head = "PUB \(subject) \(replyTo.map { $0 + " " } ?? "")\(payload.count)\r\n"
        return Array(head.utf8) + payload + [0x0D, 0x0A]
    }
}
