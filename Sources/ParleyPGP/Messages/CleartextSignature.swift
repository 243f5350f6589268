import Foundation

/// The cleartext signature framework (RFC 4880 §7): readable text, dash-escaped, followed by an
/// armored text-mode signature over its canonical form.
public enum CleartextSignature {
    /// The canonical bytes a cleartext signature signs: trailing spaces and tabs removed from each
    /// line, lines joined with CRLF, no final line ending.
    static func canonical(_ lines: [Substring]) -> [UInt8] {
        Array(lines.map { line in
            var trimmed = line
            while let last = trimmed.last, last == " " || last == "\t" { trimmed = trimmed.dropLast() }
            return String(trimmed)
        }.joined(separator: "\r\n").utf8)
    }

    /// Splits text into lines on LF, CRLF or CR.
    private static func lines(_ text: String) -> [Substring] {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Makes a cleartext-signed message of `text` with each signer (SHA-256).
    public static func sign(_ text: String, signers: [UnlockedKey], now: UInt32) throws -> String {
        guard !signers.isEmpty else { throw PGPError.unusableKey("no signing key") }
        var textLines = lines(text)
        // A final newline ends the last line; it is not an extra empty line of the signed text.
        if textLines.count > 1, textLines.last == "" { textLines.removeLast() }
        let data = canonical(textLines)
        let signatures = try signers.map {
            Packet(.signature, body: try Signature.create(type: .text, over: data, by: $0, hash: .sha256, time: now).body)
        }
        var out = "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n"
        for line in textLines { out += (line.hasPrefix("-") ? "- " : "") + line + "\n" }
        return out + Armor.encode(signatures.encoded, as: .signature)
    }

    /// Reads a cleartext-signed message: the text (dash-escaping undone, every line ended by LF, as
    /// Sequoia and GnuPG print it) and the signatures over it.
    public static func read(_ message: String) throws -> (text: String, signed: [UInt8], signatures: [Signature]) {
        let all = lines(message)
        guard let begin = all.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "-----BEGIN PGP SIGNED MESSAGE-----" }) else {
            throw PGPError.badArmor("no BEGIN PGP SIGNED MESSAGE line")
        }
        var index = begin + 1
        // "Hash:" headers until the blank line; Parley takes the hash from the signature itself.
        while index < all.count, !all[index].trimmingCharacters(in: .whitespaces).isEmpty { index += 1 }
        index += 1
        guard let signatureStart = all[min(index, all.count)...].firstIndex(where: {
            $0.trimmingCharacters(in: .whitespaces) == "-----BEGIN PGP SIGNATURE-----"
        }) else { throw PGPError.badArmor("no BEGIN PGP SIGNATURE line after the signed text") }
        let textLines = all[index..<signatureStart].map { $0.hasPrefix("- ") ? $0.dropFirst(2) : $0 }
        let armor = all[signatureStart...].joined(separator: "\n")
        let decoded = try Armor.decode(armor)
        guard decoded.kind == .signature else { throw PGPError.badArmor("cleartext message without a signature block") }
        let signatures = try PacketParser.parse(decoded.data).filter { $0.tag == .signature }.map { try Signature(packetBody: $0.body) }
        guard !signatures.isEmpty else { throw PGPError.malformed("no signature packets") }
        return (textLines.map { $0 + "\n" }.joined(), canonical(textLines), signatures)
    }

    /// Verifies a cleartext-signed message against `certificates`.
    public static func verify(_ message: String, certificates: [Certificate], now: UInt32) throws -> (text: String, verifications: [Verification]) {
        let (text, signed, signatures) = try read(message)
        return (text, signatures.map { Verification.check($0, data: signed, certificates: certificates, now: now) })
    }
}
