/// MQTT 3.1.1 control packets (OASIS MQTT 3.1.1, §2.2) cut from a broker's byte stream.
package struct MQTTFramer {
    /// A control packet: its type (the high four bits of its first byte), its flags (the low four) and its body.
    package struct Packet: Equatable {
        let type: UInt8
        let flags: UInt8
        let body: [UInt8]
    }

    /// The largest packet the benchmark accepts; its messages are far smaller.
    package static let maximumLength = 1 << 20

    private var buffer: [UInt8] = []

    /// Adds `bytes` and returns the packets now complete; throws on a length MQTT does not allow.
    package mutating func feed(_ bytes: [UInt8]) throws(PeerWireError) -> [Packet] {
        buffer += bytes
        var packets: [Packet] = []
        var start = 0
        while buffer.count - start >= 2 {
            // The remaining length: seven bits a byte, low group first, at most four bytes (§2.2.3).
            var length = 0
            var multiplier = 1
            var index = start + 1
            var complete = false
            while index < buffer.count, index - start <= 4 {
                let byte = buffer[index]
                length += Int(byte & 0x7F) * multiplier
                multiplier *= 128
                index += 1
                if byte & 0x80 == 0 {
                    complete = true
                    break
                }
            }
            if !complete {
                if index - start > 4 { throw PeerWireError("an MQTT packet's length runs past four bytes") }
                break
            }
            guard length <= Self.maximumLength else { throw PeerWireError("an MQTT packet of \(length) bytes is over the limit") }
            guard buffer.count - index >= length else { break }
            packets.append(Packet(type: buffer[start] >> 4, flags: buffer[start] & 0x0F, body: Array(buffer[index..<index + length])))
            start = index + length
        }
        buffer.removeFirst(start)
        return packets
    }

    /// `body` with its remaining length and first byte in front.
    package static func packet(_ first: UInt8, _ body: [UInt8]) -> [UInt8] {
        var length = body.count
        var encoded: [UInt8] = []
        repeat {
            var byte = UInt8(length % 128)
            length /= 128
            if length > 0 { byte |= 0x80 }
            encoded.append(byte)
        } while length > 0
        return [first] + encoded + body
    }

    /// A UTF-8 string as MQTT writes it: a two-byte big-endian length, then the bytes.
    package static func string(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
    }
}
