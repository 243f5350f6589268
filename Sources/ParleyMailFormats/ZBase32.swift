/// z-base-32 (Zooko's human-oriented base-32, as the Web Key Directory draft §3.1 uses it): 5 bits per
/// character, most significant bit first, no padding.
enum ZBase32 {
    static let alphabet = Array("ybndrfg8ejkmcpqxot1uwisza345h769")

    static func encode(_ bytes: [UInt8]) -> String {
        var out = ""
        var buffer = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[(buffer >> bits) & 31])
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return out
    }
}
