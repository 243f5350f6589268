/// The CRC-24 checksum OpenPGP ASCII armor carries (RFC 4880 §6.1).
public enum CRC24 {
    /// The checksum of `bytes`, in the low 24 bits.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xB7_04CE
        for byte in bytes {
            crc ^= UInt32(byte) << 16
            for _ in 0..<8 {
                crc <<= 1
                if crc & 0x100_0000 != 0 { crc ^= 0x186_4CFB }
            }
        }
        return crc & 0xFF_FFFF
    }
}
