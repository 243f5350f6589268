#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Content-Transfer-Encoding (RFC 2045 §6): base64, quoted-printable, and the identity encodings.
public enum TransferEncoding {
    /// Decodes a body in `encoding` (lowercased name); bad data and unknown encodings are typed errors.
    public static func decode(_ body: ArraySlice<UInt8>, encoding: String) throws -> [UInt8] {
        switch encoding {
        case "7bit", "8bit", "binary", "":
            return Array(body)
        case "base64":
            guard let decoded = decodeBase64(body) else { throw MailError.badBase64 }
            return decoded
        case "quoted-printable":
            return try decodeQuotedPrintable(body)
        default:
            throw MailError.unknownTransferEncoding(encoding)
        }
    }

    private static let base64Values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// Base64 with line breaks and spaces ignored; padding optional at the very end. Returns nil for a
    /// character outside the alphabet, data after padding, or a length no encoder produces.
    static func decodeBase64<Bytes: Collection>(_ bytes: Bytes) -> [UInt8]? where Bytes.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3 / 4)
        var accumulator: UInt32 = 0, count = 0, padding = 0
        for byte in bytes {
            switch byte {
            case 0x0D, 0x0A, 0x20, 0x09:
                continue
            case 0x3D:
                padding += 1
                guard padding <= 2 else { return nil }
                continue
            default:
                guard padding == 0 else { return nil }
                let value = base64Values[Int(byte)]
                guard value != 0xFF else { return nil }
                accumulator = accumulator << 6 | UInt32(value)
                count += 1
                if count == 4 {
                    out += [UInt8(accumulator >> 16 & 0xFF), UInt8(accumulator >> 8 & 0xFF), UInt8(accumulator & 0xFF)]
                    accumulator = 0
                    count = 0
                }
            }
        }
        switch count {
        case 0: guard padding == 0 else { return nil }
        case 2: out.append(UInt8(accumulator >> 4 & 0xFF))
        case 3: out += [UInt8(accumulator >> 10 & 0xFF), UInt8(accumulator >> 2 & 0xFF)]
        default: return nil
        }
        if count != 0, padding != 0, count + padding != 4 { return nil }
        return out
    }

    /// Quoted-printable: `=XX` is a byte, `=` at a line end is a soft break, trailing whitespace on a
    /// line is dropped. Any other `=` is `.badQuotedPrintable`.
    static func decodeQuotedPrintable(_ body: ArraySlice<UInt8>) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var index = body.startIndex
        while index < body.endIndex {
            let lineEnd = body[index...].firstIndex(of: 0x0A) ?? body.endIndex
            var line = body[index..<lineEnd]
            if line.last == 0x0D { line = line.dropLast() }
            while let last = line.last, last == 0x20 || last == 0x09 { line = line.dropLast() }
            var soft = false
            var position = line.startIndex
            while position < line.endIndex {
                let byte = line[position]
                if byte == 0x3D {
                    if position + 1 == line.endIndex {
                        soft = true
                        break
                    }
                    guard position + 2 < line.endIndex, let high = hexValue(line[position + 1]),
                          let low = hexValue(line[position + 2]) else {
                        throw MailError.badQuotedPrintable
                    }
                    out.append(high << 4 | low)
                    position += 3
                } else {
                    out.append(byte)
                    position += 1
                }
            }
            if lineEnd < body.endIndex {
                if !soft { out += [0x0D, 0x0A] }
                index = lineEnd + 1
            } else {
                index = lineEnd
            }
        }
        return out
    }

    /// Base64 in 76-character lines ended by CRLF (RFC 2045 §6.8).
    public static func encodeBase64(_ bytes: [UInt8]) -> String {
        let encoded = Data(bytes).base64EncodedString()
        var out = ""
        out.reserveCapacity(encoded.count + encoded.count / 38 + 2)
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let end = encoded.index(index, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            out += encoded[index..<end] + "\r\n"
            index = end
        }
        return out
    }
}
