import Crypto
import _CryptoExtras
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The key both devices derive from the code and an ephemeral X25519 exchange, and the boxes sealed
/// under it (FORMATS.md §14). One channel per pairing; forget it when the pairing ends.
public struct PairingChannel: Sendable {
    /// Which side of the pairing this device is.
    public enum Role: Sendable { case newDevice, authorizingDevice }

    static let context = Array("Parley-pair-v1".utf8)
    static let keysContext = Array("Parley-pair-keys-v1".utf8)
    static let historyContext = Array("Parley-pair-history-v1".utf8)
    static let version: UInt8 = 0x01
    static let nonceLength = 12
    static let tagLength = 16
    /// scrypt cost of stretching the 64-bit secret: 2^15, r = 8, p = 1 (32 MiB, tens of milliseconds).
    static let scryptRounds = 1 << 15

    /// The pairing id the boxes are bound to.
    public let pairID: UInt32
    private let key: SymmetricKey

    /// Derives the channel key. `ownPrivate` is this device's ephemeral key; `newDevicePublic` and
    /// `authorizingPublic` are both public keys in protocol order (one of them is this device's).
    public init(
        code: PairingCode, ownPrivate: Curve25519.KeyAgreement.PrivateKey,
        newDevicePublic: [UInt8], authorizingPublic: [UInt8], role: Role
    ) throws(PairingError) {
        let peer = role == .newDevice ? authorizingPublic : newDevicePublic
        guard newDevicePublic.count == 32, authorizingPublic.count == 32,
            let peerKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: peer),
            let shared = try? ownPrivate.sharedSecretFromKeyAgreement(with: peerKey)
        else { throw .invalidPublicKey }
        let isZero = shared.withUnsafeBytes { $0.allSatisfy { $0 == 0 } }
        guard !isZero else { throw .invalidPublicKey }
        let pairIDBytes = Self.bigEndian(code.pairID)
        let stretched: SymmetricKey
        do {
            stretched = try KDF.Scrypt.deriveKey(
                from: code.secret, salt: Self.context + pairIDBytes, outputByteCount: 32,
                rounds: Self.scryptRounds, blockSize: 8, parallelism: 1)
        } catch {
            throw .cannotDecrypt
        }
        let salt = stretched.withUnsafeBytes { Array($0) }
        pairID = code.pairID
        key = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: salt, sharedInfo: Self.context + pairIDBytes + newDevicePublic + authorizingPublic,
            outputByteCount: 32)
    }

    /// Whether the derived key equals `bytes` (constant time; for known-answer tests).
    public func keyMatches(_ bytes: [UInt8]) -> Bool {
        key.withUnsafeBytes { ConstantTime.equals(Array($0), bytes) }
    }

    /// Seals the keys payload.
    public func sealKeys(_ plaintext: [UInt8], random: some RandomSource = SystemRandomSource()) -> [UInt8] {
        seal(plaintext, associatedData: keysAD, random: random)
    }

    /// Opens the keys payload.
    public func openKeys(_ sealed: [UInt8]) throws(PairingError) -> [UInt8] {
        try open(sealed, associatedData: keysAD)
    }

    /// Seals history chunk `index`; `last` marks the final one.
    public func sealChunk(_ plaintext: [UInt8], index: UInt32, last: Bool, random: some RandomSource = SystemRandomSource()) -> [UInt8] {
        seal(plaintext, associatedData: chunkAD(index: index, last: last), random: random)
    }

    /// Opens history chunk `index`, which the server said is (or is not) the last.
    public func openChunk(_ sealed: [UInt8], index: UInt32, last: Bool) throws(PairingError) -> [UInt8] {
        try open(sealed, associatedData: chunkAD(index: index, last: last))
    }

    private var keysAD: [UInt8] { Self.keysContext + Self.bigEndian(pairID) }

    private func chunkAD(index: UInt32, last: Bool) -> [UInt8] {
        Self.historyContext + Self.bigEndian(pairID) + Self.bigEndian(index) + [last ? 1 : 0]
    }

    private func seal(_ plaintext: [UInt8], associatedData: [UInt8], random: some RandomSource) -> [UInt8] {
        let nonce = random.bytes(Self.nonceLength)
        // AES-GCM with a 12-byte nonce and a 32-byte key cannot fail.
        let box = try! AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: nonce), authenticating: associatedData)
        return [Self.version] + nonce + box.ciphertext + box.tag
    }

    private func open(_ sealed: [UInt8], associatedData: [UInt8]) throws(PairingError) -> [UInt8] {
        guard sealed.count >= 1 + Self.nonceLength + Self.tagLength else { throw .corrupt }
        guard sealed[0] == Self.version else { throw .unsupportedVersion }
        let nonceEnd = 1 + Self.nonceLength, tagStart = sealed.count - Self.tagLength
        guard let nonce = try? AES.GCM.Nonce(data: sealed[1..<nonceEnd]),
            let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: sealed[nonceEnd..<tagStart], tag: sealed[tagStart...]),
            let plaintext = try? AES.GCM.open(box, using: key, authenticating: associatedData)
        else { throw .cannotDecrypt }
        return Array(plaintext)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
