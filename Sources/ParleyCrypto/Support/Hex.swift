/// Bytes written as hexadecimal digits, two per byte: fingerprints, key ids, file names made from digests.
public enum Hex {
    private static let lowerDigits = Array("0123456789abcdef".utf8)
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    /// `0x1f 0xa0` → `"1fa0"`.
    public static func lower(_ bytes: some Sequence<UInt8>) -> String { write(bytes, digits: lowerDigits) }

    /// `0x1f 0xa0` → `"1FA0"` (OpenPGP fingerprints and key ids, as gpg prints them).
    public static func upper(_ bytes: some Sequence<UInt8>) -> String { write(bytes, digits: upperDigits) }

    private static func write(_ bytes: some Sequence<UInt8>, digits: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
