/// ASCII armor added or removed as the data streams by, for `sop armor` / `sop dearmor` on input of any size.
extension Armor {
    /// Armors the OpenPGP packets `input` holds into `output`, labelled after the first packet (key,
    /// signature or message), as `encode` does; input that is already armored is copied unchanged.
    ///
    /// The packet framing is checked on the way, so input that is not OpenPGP throws — but only after
    /// the armor of what came before reached `output`: callers that must not emit a partial result
    /// write to a scratch file first.
    public static func encode(from input: PGPInput, to output: PGPOutput) throws {
        let source = BufferedInput(input)
        let head = try source.peek(1024)
        if isArmored(head) { return try source.forEachChunk { try output.write($0) } }
        let sink = try ArmorSink(output, kind: kind(ofFirstPacketHeader: head.first))
        let packets = BufferedInput(TeeInput(source, into: sink))
        while let (_, body) = try PacketStream.next(packets) { try body.drain() }
        try sink.finish()
    }

    /// Removes the armor from `input` into `output` (the first armored block, CRC-24 checked when
    /// present); binary input is copied unchanged, as `unwrap` does. Like `encode(from:to:)`, a bad
    /// checksum or a missing END line throws after the bytes before it were written.
    public static func decode(from input: PGPInput, to output: PGPOutput) throws {
        let source = BufferedInput(input)
        let data: PGPInput = isArmored(try source.peek(1024)) ? try DearmorInput(source) : source
        try data.forEachChunk { try output.write($0) }
    }

    /// The armor label for a packet stream starting with `header` (old or new format tag).
    private static func kind(ofFirstPacketHeader header: UInt8?) -> Kind {
        guard let header else { return .message }
        let tag = header & 0x40 != 0 ? header & 0x3F : (header >> 2) & 0x0F
        return switch Packet.Tag(rawValue: tag) {
        case .secretKey: .privateKey
        case .publicKey: .publicKey
        case .signature: .signature
        default: .message
        }
    }
}

/// Passes every byte read from a source to a sink as well: the armor of exactly the bytes the packet
/// reader walked over.
final class TeeInput: PGPInput {
    private let source: PGPInput
    private let sink: PGPSink

    init(_ source: PGPInput, into sink: PGPSink) {
        self.source = source
        self.sink = sink
    }

    func read(upTo count: Int) throws -> [UInt8] {
        let bytes = try source.read(upTo: count)
        try sink.write(bytes)
        return bytes
    }
}
