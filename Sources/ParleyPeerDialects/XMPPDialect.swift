import Foundation

/// XMPP client-to-server (RFC 6120) against Prosody: an anonymous login (SASL ANONYMOUS), a bound resource, then
/// `<message type='chat'>` stanzas to the partner's full JID. XMPP acknowledges nothing without stream management
/// (XEP-0198), so a message counts as acknowledged once written, as in core NATS.
package struct XMPPDialect: PeerDialect {
    private let domain: String
    private var splitter = XMPPElementSplitter()
    private var authenticated = false

    package init(domain: String) { self.domain = domain }

    package var acknowledges: Bool { false }

    package mutating func opening() -> [UInt8] { streamHeader }

    private var streamHeader: [UInt8] {
        Array("<?xml version='1.0'?><stream:stream to='\(domain)' version='1.0' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>".utf8)
    }

    package mutating func read(_ bytes: [UInt8]) throws(PeerWireError) -> [PeerEvent] {
        var events: [PeerEvent] = []
        for piece in try splitter.feed(bytes) {
            switch piece {
            case .streamHeader: break
            case .streamEnd: throw PeerWireError("the XMPP server closed the stream")
            case .element(let bytes): events += try element(String(decoding: bytes, as: UTF8.self))
            }
        }
        return events
    }

    package mutating func publish(id: Int, size: Int, to address: String) -> [UInt8] {
        Array("<message to='\(address)' type='chat'><body>".utf8) + PeerPayload.make(id: id, size: size) + Array("</body></message>".utf8)
    }

    private mutating func element(_ text: String) throws(PeerWireError) -> [PeerEvent] {
        if text.hasPrefix("<message") {
            guard !text.contains("type='error'"), !text.contains("type=\"error\"") else {
                throw PeerWireError("the XMPP server bounced a message: \(text.prefix(200))")
            }
            guard let body = Self.content(of: "body", in: text), let id = PeerPayload.id(in: Array(body.utf8)) else { return [] }
            return [.delivered(id: id)]
        }
        if text.hasPrefix("<stream:features") {
            if !authenticated {
                guard text.contains(">ANONYMOUS<") else { throw PeerWireError("the XMPP server does not offer anonymous login") }
                return [.answer(Array("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='ANONYMOUS'/>".utf8))]
            }
            guard text.contains("<bind") else { throw PeerWireError("the XMPP server offers no resource binding") }
            return [.answer(Array("<iq type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>bench</resource></bind></iq>".utf8))]
        }
        if text.hasPrefix("<success") {
            authenticated = true
            return [.answer(streamHeader)]
        }
        if text.hasPrefix("<iq"), text.contains("id='bind'") || text.contains("id=\"bind\"") {
            guard let jid = Self.content(of: "jid", in: text) else { throw PeerWireError("the XMPP server did not bind a resource") }
            // Available, so the server routes to this resource.
            return [.answer(Array("<presence/>".utf8)), .ready(address: String(jid))]
        }
        if text.hasPrefix("<failure") || text.hasPrefix("<stream:error") {
            throw PeerWireError("the XMPP server refused the session: \(text.prefix(200))")
        }
        return []
    }

    /// The text inside the first `<name>…</name>` of `text`.
    private static func content(of name: String, in text: String) -> Substring? {
        guard let open = text.range(of: "<\(name)>"), let close = text.range(of: "</\(name)>", range: open.upperBound..<text.endIndex) else {
            return nil
        }
        return text[open.upperBound..<close.lowerBound]
    }
}
