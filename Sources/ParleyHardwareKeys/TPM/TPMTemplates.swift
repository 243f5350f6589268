/// The public templates of the objects Parley asks a TPM to make, marshalled as the TPM reads them
/// (docs/FORMATS.md §17) and turned into the TSS's structures by its own unmarshalling.
enum TPMTemplates {
    // Object attributes (TPM 2.0 Part 2, §8.3).
    static let fixedTPM: UInt32 = 0x0000_0002
    static let fixedParent: UInt32 = 0x0000_0010
    static let sensitiveDataOrigin: UInt32 = 0x0000_0020
    static let userWithAuth: UInt32 = 0x0000_0040
    static let noDA: UInt32 = 0x0000_0400
    static let restricted: UInt32 = 0x0001_0000
    static let decrypt: UInt32 = 0x0002_0000

    static let sha256: UInt16 = 0x000B
    static let aes: UInt16 = 0x0006
    static let cfb: UInt16 = 0x0043
    static let ecdh: UInt16 = 0x0019
    static let null = TPMPublicArea.nullAlgorithm

    /// The TCG's ECC storage-root template: the parent of everything, derived again on each use.
    static var storagePrimary: [UInt8] {
        let attributes = fixedTPM | fixedParent | sensitiveDataOrigin | userWithAuth | noDA | restricted | decrypt
        return ecc(attributes: attributes, symmetric: [aes, 128, cfb], scheme: [null])
    }

    /// An unrestricted P-256 ECDH key; without a PIN it is exempt from the dictionary-attack lockout.
    static func p256Key(pin: Bool) -> [UInt8] {
        let attributes = fixedTPM | fixedParent | sensitiveDataOrigin | userWithAuth | decrypt | (pin ? 0 : noDA)
        return ecc(attributes: attributes, symmetric: [null], scheme: [ecdh, sha256])
    }

    /// A keyed-hash object holding a sealed secret.
    static func sealedSecret(pin: Bool) -> [UInt8] {
        let attributes = fixedTPM | fixedParent | userWithAuth | (pin ? 0 : noDA)
        var area = words([TPMPublicArea.keyedHashType, sha256]) + u32(attributes) + words([0])  // empty policy
        area += words([null]) + words([0])  // scheme NULL, empty unique
        return sized(area)
    }

    /// `TPM2B_SENSITIVE_CREATE` with `authorization` as userAuth and `data` as the sensitive data.
    static func sensitive(authorization: [UInt8], data: [UInt8]) -> [UInt8] {
        sized(sized(authorization) + sized(data))
    }

    /// `TPM2B_ECC_POINT` of an uncompressed P-256 point's coordinates.
    static func eccPoint(x: [UInt8], y: [UInt8]) -> [UInt8] {
        sized(sized(x) + sized(y))
    }

    private static func ecc(attributes: UInt32, symmetric: [UInt16], scheme: [UInt16]) -> [UInt8] {
        var area = words([TPMPublicArea.eccType, sha256]) + u32(attributes) + words([0])  // empty policy
        area += words(symmetric) + words(scheme) + words([TPMPublicArea.nistP256, null])  // curve, kdf
        area += words([0, 0])  // empty unique point
        return sized(area)
    }

    private static func words(_ values: [UInt16]) -> [UInt8] { values.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
    private static func u32(_ value: UInt32) -> [UInt8] { words([UInt16(value >> 16), UInt16(value & 0xFFFF)]) }
    private static func sized(_ bytes: [UInt8]) -> [UInt8] { words([UInt16(bytes.count)]) + bytes }
}
