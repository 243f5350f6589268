#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// Several armored blocks one after another, as keyrings and SOP's CERTS inputs are often written
/// (`cat alice.asc bob.asc`).
extension Armor {
    /// Every armored block in `bytes`, in order; text between blocks is ignored as text around one
    /// block is. Each block is checked as `decode` checks one (END line, base64, CRC-24).
    public static func blocks(_ bytes: [UInt8]) throws -> [(kind: Kind, data: [UInt8])] {
        guard let text = String(bytes: bytes, encoding: .utf8) ?? String(bytes: bytes, encoding: .isoLatin1) else {
            throw PGPError.badArmor("not text")
        }
        var segments: [[Substring]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingSpaces().hasPrefix("-----BEGIN PGP ") {
                segments.append([line])
            } else if !segments.isEmpty {
                segments[segments.count - 1].append(line)
            }
        }
        guard !segments.isEmpty else { throw PGPError.badArmor("no BEGIN PGP line") }
        return try segments.map { try decode($0.joined(separator: "\n")) }
    }
}
