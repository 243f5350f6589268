/// Reads OpenPGP packets one at a time from a stream (RFC 4880 §4.2): the header is parsed, the body
/// is a stream of its own, so a packet of any size (partial or indeterminate lengths) is never held whole.
enum PacketStream {
    /// Reads the next packet header; nil at a clean end of input.
    static func next(_ input: BufferedInput) throws -> (UInt8, PacketBodyInput)? {
        guard let header = try input.byte() else { return nil }
        guard header & 0x80 != 0 else { throw PGPError.malformed("packet header without its high bit") }
        if header & 0x40 == 0 {
            let tag = (header >> 2) & 0x0F
            guard tag != 0 else { throw PGPError.malformed("packet tag 0 is reserved") }
            let lengthBytes: Int
            switch header & 0x03 {
            case 0: lengthBytes = 1
            case 1: lengthBytes = 2
            case 2: lengthBytes = 4
            default: return (tag, PacketBodyInput(input, state: .indeterminate))
            }
            var length = 0
            for byte in try input.exactly(lengthBytes) { length = length << 8 | Int(byte) }
            return (tag, PacketBodyInput(input, state: .definite(length)))
        }
        let tag = header & 0x3F
        guard tag != 0 else { throw PGPError.malformed("packet tag 0 is reserved") }
        return (tag, PacketBodyInput(input, state: try newLength(input)))
    }

    /// A new-format length: definite, or the first chunk of a partial body.
    static func newLength(_ input: BufferedInput) throws -> PacketBodyInput.State {
        guard let first = try input.byte().map(Int.init) else { throw PGPError.truncated }
        switch first {
        case 0..<192:
            return .definite(first)
        case 192..<224:
            guard let second = try input.byte() else { throw PGPError.truncated }
            return .definite((first - 192) << 8 + Int(second) + 192)
        case 255:
            var length = 0
            for byte in try input.exactly(4) { length = length << 8 | Int(byte) }
            return .definite(length)
        default:
            return .partial(1 << (first & 0x1F))
        }
    }
}

/// One packet's body as a stream; the end of the body is the end of this input.
final class PacketBodyInput: PGPInput {
    /// How much of the body is left.
    enum State {
        /// This many bytes, then the packet ends.
        case definite(Int)
        /// This many bytes, then another length header.
        case partial(Int)
        /// Until the end of the input (old-format length type 3).
        case indeterminate
    }

    private let input: BufferedInput
    private var state: State

    init(_ input: BufferedInput, state: State) {
        self.input = input
        self.state = state
    }

    func read(upTo count: Int) throws -> [UInt8] {
        while true {
            switch state {
            case .indeterminate:
                return try input.read(upTo: count)
            case .definite(0):
                return []
            case .partial(0):
                state = try PacketStream.newLength(input)
            case .definite(let remaining), .partial(let remaining):
                let chunk = try input.read(upTo: min(count, remaining))
                guard !chunk.isEmpty else { throw PGPError.truncated }
                if case .definite = state { state = .definite(remaining - chunk.count) } else { state = .partial(remaining - chunk.count) }
                return chunk
            }
        }
    }
}
