/// A literal data packet (RFC 4880 §5.9): the message's content, with a format, name and date.
public struct LiteralData: Sendable, Equatable {
    /// 'b' binary, 't' text, 'u' UTF-8 text.
    public let format: UInt8
    /// The file name the sender gave (may be empty).
    public let filename: [UInt8]
    /// The date the sender gave, seconds since 1970 (often 0).
    public let date: UInt32
    /// The content.
    public let data: [UInt8]

    /// Parses a literal data body.
    public init(packetBody: [UInt8]) throws {
        var reader = PacketReader(packetBody)
        format = try reader.u8()
        filename = try reader.take(Int(reader.u8()))
        date = try reader.u32()
        data = reader.rest()
    }

    /// A literal data value for writing.
    public init(format: UInt8 = 0x62, filename: [UInt8] = [], date: UInt32 = 0, data: [UInt8]) {
        self.format = format
        self.filename = Array(filename.prefix(255))
        self.date = date
        self.data = data
    }

    /// The packet body.
    var body: [UInt8] {
        var out = [format, UInt8(filename.count)] + filename
        out.appendU32(date)
        return out + data
    }
}
