/// The dialects' readers as bytes in, events out: for the fuzzer (`bench-peer-wire`), which cannot reach the
/// package's types. Each reader is fresh and has written its opening, as a benchmark connection has.
public enum PeerWireProbe {
    /// A peer protocol as `parley bench peer` speaks it.
    public enum Peer: CaseIterable, Sendable {
        case mqtt, nats, natsJetStream, xmpp
    }

    /// What a reader made of some bytes: every event of the reads that succeeded, described, and whether a read
    /// was refused (reading stops there, as the benchmark's connection does).
    public struct Reading: Equatable, Sendable {
        public var events: [String]
        public var refused: Bool
    }

    /// Feeds `chunks` one read at a time to a fresh reader of `peer`.
    public static func read(_ chunks: [[UInt8]], as peer: Peer) -> Reading {
        var dialect: any PeerDialect = switch peer {
        case .mqtt: MQTTDialect(index: 1)
        case .nats: NATSDialect(index: 1, jetStream: false)
        case .natsJetStream: NATSDialect(index: 1, jetStream: true)
        case .xmpp: XMPPDialect(domain: "bench.localhost")
        }
        _ = dialect.opening()
        var reading = Reading(events: [], refused: false)
        for chunk in chunks {
            do {
                reading.events += try dialect.read(chunk).map { "\($0)" }
            } catch {
                reading.refused = true
                break
            }
        }
        return reading
    }
}
