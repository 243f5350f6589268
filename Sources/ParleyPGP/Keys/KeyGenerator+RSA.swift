import _CryptoExtras
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RSA key generation on request: an RSA certify+sign primary with an RSA encryption subkey, as
/// `gpg --quick-gen-key … rsaN` makes.
extension KeyGenerator {
    /// Key sizes Parley generates.
    public enum RSASize: Int, Sendable {
        case bits2048 = 2048
        case bits3072 = 3072
        case bits4096 = 4096
    }

    /// A new RSA secret key for `userIDs`; pass phrase rules as for `generate`.
    public static func generateRSA(userIDs: [String], bits: RSASize, passphrase: [UInt8]?, now: UInt32) throws -> Certificate {
        if let passphrase, passphrase.count < 12 {
            throw PGPError.unusableKey("pass phrase shorter than 12 characters")
        }
        return try assemble(primary: rsaKey(bits: bits, now: now), subkey: rsaKey(bits: bits, now: now),
                            userIDs: userIDs, passphrase: passphrase, now: now)
    }

    /// One RSA key from swift-crypto, re-expressed as OpenPGP MPIs (n, e; d, p, q, u).
    static func rsaKey(bits: RSASize, now: UInt32) throws -> UnlockedKey {
        let size: _RSA.Signing.KeySize = switch bits {
        case .bits2048: .bits2048
        case .bits3072: .bits3072
        case .bits4096: .bits4096
        }
        while true {
            let key = try _RSA.Signing.PrivateKey(keySize: size)
            // PKCS#1 RSAPrivateKey: version, n, e, d, p, q, dp, dq, qinv.
            let fields = try DERIntegers.sequence([UInt8](key.derRepresentation))
            guard fields.count == 9 else { throw PGPError.malformed("unexpected RSA key encoding from swift-crypto") }
            let (n, e, d, p, q, qinv) = (fields[1], fields[2], fields[3], fields[4], fields[5], fields[8])
            // OpenPGP wants p < q and u = p⁻¹ mod q: with PKCS#1's p > q, swap them and u is qinv.
            guard DERIntegers.isGreater(p, q) else { continue }
            var secretMPIs: [UInt8] = []
            for value in [d, q, p, qinv] { secretMPIs.appendMPI(value) }
            let publicKey = PublicKey(created: now, material: .rsa(n: n.drop { $0 == 0 }.map { $0 }, e: e.drop { $0 == 0 }.map { $0 }))
            return try UnlockedKey(publicKey: publicKey, secretMPIs: secretMPIs)
        }
    }
}

/// Just enough DER to read the INTEGERs of a PKCS#1 private key.
enum DERIntegers {
    static func sequence(_ der: [UInt8]) throws -> [[UInt8]] {
        var reader = PacketReader(der)
        guard try reader.u8() == 0x30 else { throw PGPError.malformed("RSA key is not a DER sequence") }
        var body = PacketReader(try reader.take(length(&reader)))
        var integers: [[UInt8]] = []
        while !body.isAtEnd {
            guard try body.u8() == 0x02 else { throw PGPError.malformed("RSA key field is not an INTEGER") }
            integers.append(try body.take(length(&body)))
        }
        return integers
    }

    private static func length(_ reader: inout PacketReader) throws -> Int {
        let first = try reader.u8()
        guard first & 0x80 != 0 else { return Int(first) }
        var value = 0
        for _ in 0..<Int(first & 0x7F) { value = value << 8 | Int(try reader.u8()) }
        return value
    }

    /// Whether big-endian magnitude `a` > `b`.
    static func isGreater(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let x = Array(a.drop { $0 == 0 }), y = Array(b.drop { $0 == 0 })
        if x.count != y.count { return x.count > y.count }
        for (l, r) in zip(x, y) where l != r { return l > r }
        return false
    }
}
