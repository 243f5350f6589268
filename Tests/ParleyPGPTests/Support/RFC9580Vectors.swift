import Foundation
import ParleyPGP

/// RFC 9580 Appendix A's samples in Vectors/rfc9580, copied from the RFC (see its README).
enum RFC9580Vectors {
    /// After every sample's creation (2022-12-13), well before any expiry.
    static let now: UInt32 = 1_700_000_000
    static let password = Array("password".utf8)
    static let lockedKeyPassphrase = Array("correct horse battery staple".utf8)
    static let hello = Array("Hello, world!".utf8)
    static let primaryFingerprint = "CB186C4F0609A697E4D52DFA6C722B0C1F1E27C18A56708F6525EC27BAD9ACC9"
    static let subkeyFingerprint = "12C83F1E706F6308FE151A417743A1F033790E93E9978488D1DB378DA9930885"

    static func bytes(_ name: String) throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: name, withExtension: "asc", subdirectory: "Vectors/rfc9580") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return [UInt8](try Data(contentsOf: url))
    }

    static func certificate(_ name: String) throws -> Certificate {
        let all = try Certificate.readAll(bytes(name))
        guard all.count == 1, let only = all.first else { throw PGPError.malformed("expected one key in \(name)") }
        return only
    }

    /// The binary packets of an armored sample.
    static func packets(_ name: String) throws -> [Packet] {
        try PacketParser.parse(Armor.decode(String(decoding: bytes(name), as: UTF8.self)).data)
    }
}
