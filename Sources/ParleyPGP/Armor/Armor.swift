#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// OpenPGP ASCII armor (RFC 4880 §6): base64 between BEGIN/END lines, with an optional CRC-24.
public enum Armor {
    /// What an armored block says it holds.
    public enum Kind: String, Sendable, CaseIterable {
        /// An encrypted and/or signed message.
        case message = "MESSAGE"
        /// A certificate (public key).
        case publicKey = "PUBLIC KEY BLOCK"
        /// A secret key.
        case privateKey = "PRIVATE KEY BLOCK"
        /// A detached signature.
        case signature = "SIGNATURE"
    }

    /// Armors `data` as `kind`, with 64-character lines and a CRC-24 line (which GnuPG 2.2 expects).
    public static func encode(_ data: [UInt8], as kind: Kind, headers: [(String, String)] = []) -> String {
        var out = "-----BEGIN PGP \(kind.rawValue)-----\n"
        for (key, value) in headers { out += "\(key): \(value)\n" }
        out += "\n"
        let base64 = Data(data).base64EncodedString()
        var index = base64.startIndex
        while index < base64.endIndex {
            let end = base64.index(index, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            out += base64[index..<end] + "\n"
            index = end
        }
        let crc = CRC24.checksum(data)
        let crcBytes = [UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        out += "=" + Data(crcBytes).base64EncodedString() + "\n"
        out += "-----END PGP \(kind.rawValue)-----\n"
        return out
    }

    /// Whether `bytes` look like armor (they start, after whitespace, with `-----BEGIN PGP `).
    public static func isArmored(_ bytes: [UInt8]) -> Bool {
        let prefix = Array("-----BEGIN PGP ".utf8)
        guard let start = bytes.firstIndex(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else {
            return false
        }
        return bytes[start...].starts(with: prefix)
    }

    /// Decodes the first armored block in `text`.
    ///
    /// Tolerant the way mail mangles armor: CR, CRLF or LF line endings, trailing or leading spaces,
    /// text before the BEGIN line, headers with or without a blank separator line, and a missing CRC line.
    /// A CRC line that is present must match.
    /// With `alone`, nothing but blank lines may follow the END line (one message, as decryption wants it).
    public static func decode(_ text: String, alone: Bool = false) throws -> (kind: Kind, data: [UInt8]) {
        let lines = text.replacingEvery("\r\n", with: "\n")
            .replacingEvery("\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingSpaces() }
        guard let beginIndex = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN PGP ") && $0.hasSuffix("-----") }) else {
            throw PGPError.badArmor("no BEGIN PGP line")
        }
        let label = String(lines[beginIndex].dropFirst("-----BEGIN PGP ".count).dropLast(5))
        guard let kind = Kind(rawValue: label) else {
            throw PGPError.badArmor("unsupported armor type \"\(label.prefix(40))\"")
        }
        let endLine = "-----END PGP \(label)-----"
        guard let endIndex = lines[(beginIndex + 1)...].firstIndex(of: endLine) else {
            throw PGPError.badArmor("no matching END line")
        }
        if alone, lines[(endIndex + 1)...].contains(where: { !$0.isEmpty }) { throw PGPError.trailingData }
        var body = lines[(beginIndex + 1)..<endIndex].makeIterator()
        var dataLines: [String] = []
        var inHeaders = true
        while let line = body.next() {
            if inHeaders {
                if line.isEmpty { inHeaders = false; continue }
                if line.contains(": ") { continue }
                inHeaders = false
            }
            if !line.isEmpty { dataLines.append(line) }
        }
        var checksum: UInt32?
        if let last = dataLines.last, last.hasPrefix("="), last.count == 5 {
            dataLines.removeLast()
            guard let crc = Data(base64Encoded: String(last.dropFirst())), crc.count == 3 else {
                throw PGPError.badArmor("unreadable checksum line")
            }
            checksum = UInt32(crc[0]) << 16 | UInt32(crc[1]) << 8 | UInt32(crc[2])
        }
        guard let decoded = Data(base64Encoded: dataLines.joined()) else {
            throw PGPError.badArmor("invalid base64")
        }
        let data = [UInt8](decoded)
        if let checksum, checksum != CRC24.checksum(data) {
            throw PGPError.badArmor("CRC-24 checksum mismatch")
        }
        return (kind, data)
    }

    /// Returns binary OpenPGP data: dearmors `bytes` when armored, otherwise returns them unchanged.
    public static func unwrap(_ bytes: [UInt8], alone: Bool = false) throws -> [UInt8] {
        guard isArmored(bytes) else { return bytes }
        guard let text = String(bytes: bytes, encoding: .utf8) ?? String(bytes: bytes, encoding: .isoLatin1) else {
            throw PGPError.badArmor("not text")
        }
        return try decode(text, alone: alone).data
    }
}
