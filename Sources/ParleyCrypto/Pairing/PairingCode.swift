import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The code a new device shows and the authorizing device types (FORMATS.md §14).
///
/// 4 bytes of server-assigned pairing id and 8 secret bytes, written as 20 Crockford base32
/// characters with a 4-bit check, so a typo is caught before it burns the pairing.
public struct PairingCode: Sendable, Equatable {
    /// The pairing's id at the server.
    public let pairID: UInt32
    /// The 8 secret bytes that never reach the server.
    public let secret: [UInt8]

    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    static let checkContext = Array("Parley-pair-code-v1".utf8)
    static let secretLength = 8

    /// A code from its parts; `secret` must be 8 bytes.
    public init(pairID: UInt32, secret: [UInt8]) {
        precondition(secret.count == Self.secretLength, "a pairing secret is 8 bytes")
        self.pairID = pairID
        self.secret = secret
    }

    /// A fresh code for `pairID` with a random secret.
    public static func generate(pairID: UInt32, random: some RandomSource = SystemRandomSource()) -> PairingCode {
        PairingCode(pairID: pairID, secret: random.bytes(secretLength))
    }

    /// What the new device's QR code says: `parley-pair:` and the code as shown.
    public var qrText: String { Self.qrPrefix + text }
    static let qrPrefix = "parley-pair:"

    /// Reads a typed code (or a scanned `parley-pair:` text): case-insensitive, `-` and spaces ignored,
    /// O read as 0, I and L as 1.
    public init(parsing text: String) throws(PairingError) {
        var text = Substring(text)
        if text.lowercased().hasPrefix(Self.qrPrefix) { text = text.dropFirst(Self.qrPrefix.count) }
        var value: [UInt8] = []  // 5-bit digits
        for character in text.uppercased() {
            switch character {
            case "-", " ": continue
            case "O": value.append(0)
            case "I", "L": value.append(1)
            default:
                guard let digit = Self.alphabet.firstIndex(of: character) else { throw .notAPairingCode }
                value.append(UInt8(digit))
            }
            guard value.count <= 20 else { throw .notAPairingCode }
        }
        guard value.count == 20 else { throw .notAPairingCode }
        // 100 bits: 96 of code then 4 of check, most significant first.
        var bits = BitWriter()
        for digit in value { bits.append(UInt64(digit), count: 5) }
        let raw = Array(bits.bytes.prefix(12))
        let check = bits.bytes[12] >> 4
        guard Self.check(raw) == check else { throw .notAPairingCode }
        self.init(pairID: raw.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }, secret: Array(raw.suffix(8)))
    }

    /// The 12 bytes the code stands for.
    var raw: [UInt8] {
        [UInt8(pairID >> 24), UInt8(pairID >> 16 & 0xFF), UInt8(pairID >> 8 & 0xFF), UInt8(pairID & 0xFF)] + secret
    }

    /// The code as shown: five groups of four characters joined by `-`.
    public var text: String {
        var bits = BitWriter()
        for byte in raw { bits.append(UInt64(byte), count: 8) }
        bits.append(UInt64(Self.check(raw)), count: 4)
        let digits = bits.fiveBitDigits(count: 20)
        let characters = digits.map { Self.alphabet[Int($0)] }
        return stride(from: 0, to: 20, by: 4).map { String(characters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    static func check(_ raw: [UInt8]) -> UInt8 {
        Array(SHA256.hash(data: checkContext + raw))[0] >> 4
    }
}

/// Packs big-endian bit fields into bytes, and reads them back as 5-bit digits.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var used = 0  // bits used in the last byte

    mutating func append(_ value: UInt64, count: Int) {
        for index in stride(from: count - 1, through: 0, by: -1) {
            if used == 0 { bytes.append(0) }
            if value >> UInt64(index) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(used) }
            used = (used + 1) % 8
        }
    }

    func fiveBitDigits(count: Int) -> [UInt8] {
        (0..<count).map { digit in
            (0..<5).reduce(UInt8(0)) { value, offset in
                let bit = digit * 5 + offset
                let set = bit / 8 < bytes.count && bytes[bit / 8] & (0x80 >> UInt8(bit % 8)) != 0
                return value << 1 | (set ? 1 : 0)
            }
        }
    }
}

extension PairingCode: CustomStringConvertible {
    /// Names the pairing without the secret, so a stray log line cannot leak it.
    public var description: String { "PairingCode(pairID: \(pairID), secret: redacted)" }
}
