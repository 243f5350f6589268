@testable import ParleyPeerDialects
import Testing

/// The NATS side of `parley bench peer nats|nats-js`, fed a server's bytes without a socket.
@Suite struct NATSDialectTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    /// A server's MSG operation carrying `payload`.
    private func msg(_ subject: String, _ payload: String) -> [UInt8] {
        bytes("MSG \(subject) 2 \(payload.utf8.count)\r\n\(payload)\r\n")
    }
    private func text(_ events: [PeerEvent]) -> String {
        events.compactMap { if case .answer(let bytes) = $0 { String(decoding: bytes, as: UTF8.self) } else { nil } }.joined()
    }

    @Test func coreSubscribesToItsOwnSubjectAndIsReadyAtThePong() throws {
        var dialect = NATSDialect(index: 3, jetStream: false)
        let opening = String(decoding: dialect.opening(), as: UTF8.self)
        #expect(opening.hasPrefix("CONNECT {"))
        #expect(opening.hasSuffix("\r\nSUB b.3 1\r\nPING\r\n"))
        #expect(try dialect.read(bytes("INFO {\"server_id\":\"x\"}\r\n+OK\r\n")) == [])
        #expect(try dialect.read(bytes("PONG\r\n")) == [.ready(address: "b.3")])
        #expect(try dialect.read(bytes("PING\r\n")) == [.answer(bytes("PONG\r\n"))])
        #expect(String(decoding: dialect.publish(id: 9, size: 16, to: "b.2"), as: UTF8.self) == "PUB b.2 16\r\n9:xxxxxxxxxxxxxx\r\n")
        #expect(!dialect.acknowledges)
    }

    @Test func messagesArriveWholeWhateverTheCuts() throws {
        var dialect = NATSDialect(index: 3, jetStream: false)
        let stream = bytes("MSG b.3 1 6\r\n12:xxx\r\nMSG b.3 1 _INBOX.r 4\r\n13:x\r\n")
        var events: [PeerEvent] = []
        for byte in stream { events += try dialect.read([byte]) }
        #expect(events == [.delivered(id: 12), .delivered(id: 13)])
    }

    @Test func jetStreamCreatesTheStreamThenItsConsumer() throws {
        var dialect = NATSDialect(index: 3, jetStream: true)
        let opening = String(decoding: dialect.opening(), as: UTF8.self)
        #expect(opening.contains("SUB d.3 1\r\nSUB _INBOX.3.* 2\r\n"))
        #expect(opening.contains("PUB $JS.API.STREAM.CREATE.BENCH _INBOX.3.stream "))
        #expect(opening.contains(#""subjects":["b.*"],"storage":"file""#))
        let created = msg("_INBOX.3.stream", #"{"type":"io.nats.jetstream.api.v1.stream_create_response"}"#)
        let consumer = text(try dialect.read(created))
        #expect(consumer.hasPrefix("PUB $JS.API.CONSUMER.CREATE.BENCH _INBOX.3.consumer "))
        #expect(consumer.contains(#""deliver_subject":"d.3","filter_subject":"b.3""#))
        #expect(try dialect.read(msg("_INBOX.3.consumer", "{}")) == [.answer(bytes("PING\r\n"))])
        #expect(try dialect.read(bytes("PONG\r\n")) == [.ready(address: "b.3")])

        #expect(dialect.acknowledges)
        #expect(String(decoding: dialect.publish(id: 42, size: 16, to: "b.2"), as: UTF8.self).hasPrefix("PUB b.2 _INBOX.3.42 16\r\n"))
        #expect(try dialect.read(msg("_INBOX.3.42", #"{"stream":"BENCH","seq":17}"#)) == [.acknowledged(id: 42)])
        #expect(try dialect.read(msg("_INBOX.3.43", #"{"error":{"code":503}}"#)) == [.refused(id: 43, reason: "jetstream")])
        #expect(try dialect.read(bytes("MSG d.3 5 $JS.ACK.x 4\r\n44:x\r\n")) == [.delivered(id: 44)])
    }

    @Test func jetStreamRefusalsEndTheSession() throws {
        var stream = NATSDialect(index: 1, jetStream: true)
        _ = stream.opening()
        #expect(throws: PeerWireError.self) { try stream.read(msg("_INBOX.1.stream", #"{"error":{"description":"nope"}}"#)) }
        var existing = NATSDialect(index: 1, jetStream: true)
        _ = existing.opening()
        let again = #"{"error":{"description":"stream name already in use"}}"#
        #expect(!text(try existing.read(msg("_INBOX.1.stream", again))).isEmpty)
        #expect(throws: PeerWireError.self) { try existing.read(msg("_INBOX.1.consumer", #"{"error":{"code":1}}"#)) }
    }

    @Test func hostileBytesAreRefused() throws {
        let hostile = [
            "-ERR 'Authorization Violation'\r\n",
            "HELLO\r\n",
            "MSG b.3 1\r\n",
            "MSG b.3 1 x\r\n",
            "MSG b.3 1 -4\r\n",
            "MSG b.3 1 99999999\r\n",
            "MSG b.3 1 4\r\n12:xYZ\r\n",
            "MSG b.3 1 3\r\nabc\r\n",
            "MSG b.9 1 4\r\n12:x\r\n",
            "MSG _INBOX.3.1 1 4\r\n12:x\r\n",
            String(repeating: "A", count: 5_000),
            "INFO " + String(repeating: "A", count: 5_000) + "\r\n",
        ]
        for input in hostile {
            var dialect = NATSDialect(index: 3, jetStream: false)
            #expect(throws: PeerWireError.self, "\(input.prefix(40))") { try dialect.read(bytes(input)) }
        }
    }
}
