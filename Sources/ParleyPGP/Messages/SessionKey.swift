#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// A message's symmetric session key and cipher.
public struct SessionKey: Sendable, Equatable {
    /// The cipher the message is encrypted with.
    public let algorithm: SymmetricAlgorithm
    /// The key bytes.
    public let key: [UInt8]

    /// A session key; the length must match the cipher.
    public init(algorithm: SymmetricAlgorithm, key: [UInt8]) throws {
        guard key.count == algorithm.keySize else { throw PGPError.malformed("session key length does not match its cipher") }
        self.algorithm = algorithm
        self.key = key
    }

    /// A fresh random session key.
    static func random(_ algorithm: SymmetricAlgorithm) -> SessionKey {
        var generator = SystemRandomNumberGenerator()
        return SessionKey(checkedAlgorithm: algorithm, key: (0..<algorithm.keySize).map { _ in generator.next() })
    }

    /// For keys whose length is right by construction.
    private init(checkedAlgorithm: SymmetricAlgorithm, key: [UInt8]) {
        algorithm = checkedAlgorithm
        self.key = key
    }

    /// `algorithm || key || checksum`, the value PKESK packets carry (RFC 4880 §5.1).
    var withChecksum: [UInt8] {
        var out = [algorithm.rawValue] + key
        out.appendU16(SecretKey.checksum(key))
        return out
    }

    /// `key || checksum`, what a v6 PKESK carries for RSA and ECDH (the cipher is in the SEIPD v2 header).
    var keyWithChecksum: [UInt8] {
        var out = key
        out.appendU16(SecretKey.checksum(key))
        return out
    }

    /// Parses `algorithm || key || checksum`, or with `cipher` given (v6) `key || checksum`; a bad checksum means
    /// the wrong key decrypted it.
    static func fromChecksummed(_ bytes: [UInt8], cipher: SymmetricAlgorithm? = nil) throws -> SessionKey {
        let start = cipher == nil ? 1 : 0
        guard bytes.count >= start + 2 else { throw PGPError.noMatchingKey }
        let key = Array(bytes[start..<(bytes.count - 2)])
        let checksum = Int(bytes[bytes.count - 2]) << 8 | Int(bytes[bytes.count - 1])
        guard checksum == SecretKey.checksum(key) else { throw PGPError.noMatchingKey }
        guard let cipher else { return try SessionKey(algorithm: .from(bytes[0]), key: key) }
        guard key.count == cipher.keySize else { throw PGPError.noMatchingKey }
        return try SessionKey(algorithm: cipher, key: key)
    }

    /// Parses the `ALGO:HEX` form SOP uses.
    public init(sopString: String) throws {
        let parts = sopString.trimmingSpacesAndNewlines().split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let algorithm = UInt8(parts[0]), parts[1].count % 2 == 0 else {
            throw PGPError.malformed("session key is not ALGO:HEX")
        }
        var key: [UInt8] = []
        var index = parts[1].startIndex
        while index < parts[1].endIndex {
            let next = parts[1].index(index, offsetBy: 2)
            guard let byte = UInt8(parts[1][index..<next], radix: 16) else { throw PGPError.malformed("session key is not ALGO:HEX") }
            key.append(byte)
            index = next
        }
        try self.init(algorithm: .from(algorithm), key: key)
    }

    /// The session key as `ALGO:HEX`, the form `sop --session-key-out` prints.
    public var sopString: String {
        "\(algorithm.rawValue):" + Hex.upper(key)
    }
}
