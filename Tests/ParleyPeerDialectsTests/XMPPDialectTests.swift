import Foundation
@testable import ParleyPeerDialects
import Testing

/// The XMPP side of `parley bench peer xmpp`, fed a server's bytes (as Prosody 0.12 writes them) without a socket.
@Suite struct XMPPDialectTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    private func answers(_ events: [PeerEvent]) -> [String] {
        events.compactMap { if case .answer(let bytes) = $0 { String(decoding: bytes, as: UTF8.self) } else { nil } }
    }

    private let header = "<?xml version='1.0'?><stream:stream xmlns='jabber:client' xml:lang='en' id='a1' from='bench.localhost' version='1.0' xmlns:stream='http://etherx.jabber.org/streams'>"
    private let mechanisms = "<stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>ANONYMOUS</mechanism></mechanisms></stream:features>"
    private let bind = "<stream:features><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><required/></bind><session xmlns='urn:ietf:params:xml:ns:xmpp-session'><optional/></session></stream:features>"
    private let bound = "<iq type='result' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><jid>0f3c@bench.localhost/bench</jid></bind></iq>"

    /// A session through login and binding, its server's bytes cut at every byte when `byByte`.
    private func readySession(byByte: Bool = false) throws -> XMPPDialect {
        var dialect = XMPPDialect(domain: "bench.localhost")
        #expect(String(decoding: dialect.opening(), as: UTF8.self).contains("<stream:stream to='bench.localhost' version='1.0'"))
        let server = header + mechanisms + "<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>" + header + bind + bound
        var events: [PeerEvent] = []
        if byByte {
            for byte in bytes(server) { events += try dialect.read([byte]) }
        } else {
            events = try dialect.read(bytes(server))
        }
        let written = answers(events)
        #expect(written.count == 4)
        #expect(written.first == "<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='ANONYMOUS'/>")
        #expect(written.dropFirst().first?.contains("<stream:stream to='bench.localhost'") == true)
        #expect(written.dropFirst(2).first?.contains("<bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>") == true)
        #expect(written.last == "<presence/>")
        #expect(events.last == .ready(address: "0f3c@bench.localhost/bench"))
        return dialect
    }

    @Test func logsInAnonymouslyAndBindsAResource() throws {
        _ = try readySession()
        _ = try readySession(byByte: true)
    }

    @Test func sendsAndReceivesChatMessages() throws {
        var dialect = try readySession()
        #expect(String(decoding: dialect.publish(id: 5, size: 16, to: "77ab@bench.localhost/bench"), as: UTF8.self)
            == "<message to='77ab@bench.localhost/bench' type='chat'><body>5:xxxxxxxxxxxxxx</body></message>")
        #expect(!dialect.acknowledges)
        let incoming = "<message type='chat' to='0f3c@bench.localhost/bench' from='77ab@bench.localhost/bench'><body>6:xx&gt;x</body></message>"
        #expect(try dialect.read(bytes(incoming + "<presence from='x'/>" + incoming.replacingOccurrences(of: "6:", with: "7:"))) == [.delivered(id: 6), .delivered(id: 7)])
        // A stanza the benchmark did not send (no id in its body) is passed over.
        #expect(try dialect.read(bytes("<message from='x'><body>hello</body></message><iq type='get' id='p'><ping xmlns='urn:xmpp:ping'/></iq>")) == [])
    }

    @Test func refusalsAndBouncesEndTheSession() throws {
        let cases = [
            header + "<stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></stream:features>",
            header + mechanisms + "<failure xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><not-authorized/></failure>",
            header + "<stream:error><host-unknown xmlns='urn:ietf:params:xml:ns:xmpp-streams'/></stream:error>",
            header + "</stream:stream>",
        ]
        for input in cases {
            var dialect = XMPPDialect(domain: "bench.localhost")
            #expect(throws: PeerWireError.self, "\(input.suffix(60))") { try dialect.read(bytes(input)) }
        }
        var bounced = try readySession()
        #expect(throws: PeerWireError.self) {
            try bounced.read(bytes("<message type='error' from='gone@bench.localhost/bench'><body>8:x</body><error type='cancel'/></message>"))
        }
    }

    @Test func theSplitterKeepsQuotedBracketsAndRefusesWhatXMPPForbids() throws {
        var splitter = XMPPElementSplitter()
        let quoted = "<message id='a>b' to=\"c>d\"><body>1:x</body></message>"
        #expect(try splitter.feed(bytes(header + quoted + "<r/>")) == [.streamHeader, .element(bytes(quoted)), .element(bytes("<r/>"))])
        let hostile = [
            header + "<!-- a comment -->",
            header + "<!DOCTYPE x>",
            header + "<?php x?>",
            header + "</message>",
            "<message><body>1:x</body></message>",
        ]
        for input in hostile {
            var fresh = XMPPElementSplitter()
            #expect(throws: PeerWireError.self, "\(input.suffix(40))") { try fresh.feed(bytes(input)) }
        }
        // An element cut between two reads, after others in the first.
        var cut = XMPPElementSplitter()
        #expect(try cut.feed(bytes(header + "<r/><message><bo")) == [.streamHeader, .element(bytes("<r/>"))])
        #expect(try cut.feed(bytes("dy>1:x</body></message>")) == [.element(bytes("<message><body>1:x</body></message>"))])
        var oversize = XMPPElementSplitter()
        _ = try oversize.feed(bytes(header + "<message><body>"))
        #expect(throws: PeerWireError.self) { try oversize.feed([UInt8](repeating: 0x61, count: XMPPElementSplitter.maximumElement + 1)) }
    }
}
