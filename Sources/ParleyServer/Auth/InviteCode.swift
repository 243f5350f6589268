import Crypto
import Foundation
import ParleyCrypto

/// An invite code (docs/OPERATIONS.md §7): 20 characters of Crockford's base32 — 100 random bits — shown in
/// four groups of five (`K7QP2-XM4RD-9TBNV-W3HJC`). The server keeps only its SHA-256, so a copy of the
/// database does not hold usable codes.
public enum InviteCode {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    static let length = 20

    /// A new code from `random`.
    public static func make(_ random: any RandomSource) -> String {
        // 100 bits, read five at a time from 13 random bytes: every character uniform, no modulo bias.
        let bytes = random.bytes(13)
        var characters: [Character] = []
        for index in 0..<length {
            var value = 0
            for bit in 0..<5 {
                let position = index * 5 + bit
                value = value << 1 | Int(bytes[position / 8] >> (7 - position % 8) & 1)
            }
            characters.append(alphabet[value])
        }
        return stride(from: 0, to: length, by: 5).map { String(characters[$0..<$0 + 5]) }.joined(separator: "-")
    }

    /// The code as typed, made canonical: case and dashes or spaces do not matter, and the letters Crockford
    /// reads as digits (O as 0; I and L as 1) are read so. Nil unless exactly 20 code characters remain.
    public static func normalised(_ typed: String) -> String? {
        guard typed.utf8.count <= 64 else { return nil }
        var result = ""
        for character in typed.uppercased() where character != "-" && character != " " {
            let mapped: Character = switch character { case "O": "0"; case "I", "L": "1"; default: character }
            guard alphabet.contains(mapped) else { return nil }
            result.append(mapped)
        }
        return result.count == length ? result : nil
    }

    /// What the store keeps: SHA-256 over a domain label and the canonical code.
    public static func hash(ofNormalised code: String) -> [UInt8] {
        Array(SHA256.hash(data: Array("parley-invite-v1:".utf8) + Array(code.utf8)))
    }
}
