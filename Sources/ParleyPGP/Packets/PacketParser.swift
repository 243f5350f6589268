/// Splits binary OpenPGP data into packets (RFC 4880 §4.2): old and new headers, partial and
/// indeterminate lengths. Pure and bounds-checked; hostile lengths produce errors, never traps.
public enum PacketParser {
    /// Parses every packet in `data`. Throws `.truncated` when a packet is cut short.
    public static func parse(_ data: [UInt8]) throws -> [Packet] {
        var packets: [Packet] = []
        var offset = 0
        while offset < data.count {
            let (packet, next) = try parseOne(data, at: offset)
            packets.append(packet)
            offset = next
        }
        return packets
    }

    private static func parseOne(_ data: [UInt8], at start: Int) throws -> (Packet, Int) {
        let header = data[start]
        guard header & 0x80 != 0 else { throw PGPError.malformed("packet header without its high bit") }
        var offset = start + 1
        if header & 0x40 == 0 {
            // Old format: tag in bits 5–2, length type in bits 1–0.
            let tag = (header >> 2) & 0x0F
            guard tag != 0 else { throw PGPError.malformed("packet tag 0 is reserved") }
            let lengthBytes: Int
            switch header & 0x03 {
            case 0: lengthBytes = 1
            case 1: lengthBytes = 2
            case 2: lengthBytes = 4
            default:
                // Indeterminate length: the packet runs to the end of the data.
                return (Packet(tagNumber: tag, body: Array(data[offset...])), data.count)
            }
            guard data.count - offset >= lengthBytes else { throw PGPError.truncated }
            var length = 0
            for _ in 0..<lengthBytes {
                length = length << 8 | Int(data[offset])
                offset += 1
            }
            guard data.count - offset >= length else { throw PGPError.truncated }
            return (Packet(tagNumber: tag, body: Array(data[offset..<(offset + length)])), offset + length)
        }
        let tag = header & 0x3F
        guard tag != 0 else { throw PGPError.malformed("packet tag 0 is reserved") }
        var body: [UInt8] = []
        while true {
            guard offset < data.count else { throw PGPError.truncated }
            let first = Int(data[offset])
            offset += 1
            var length: Int
            var partial = false
            switch first {
            case 0..<192:
                length = first
            case 192..<224:
                guard offset < data.count else { throw PGPError.truncated }
                length = (first - 192) << 8 + Int(data[offset]) + 192
                offset += 1
            case 255:
                guard data.count - offset >= 4 else { throw PGPError.truncated }
                length = 0
                for _ in 0..<4 {
                    length = length << 8 | Int(data[offset])
                    offset += 1
                }
            default:
                length = 1 << (first & 0x1F)
                partial = true
            }
            guard data.count - offset >= length else { throw PGPError.truncated }
            body += data[offset..<(offset + length)]
            offset += length
            if !partial { break }
        }
        return (Packet(tagNumber: tag, body: body), offset)
    }
}
