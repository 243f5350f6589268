import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// The parsed MainKey file (docs/FORMATS.md "MainKey file"): pure encoding and decoding, no I/O.
struct MainKeyFileContents: Equatable {
    /// The mode-specific part of the file.
    enum Body: Equatable {
        /// Mode 00: the MainKey itself.
        case none(key: [UInt8])
        /// Mode 01: the MainKey sealed under scrypt(PIN, salt); `wrapped` is ciphertext(32) || tag(16).
        case pin(salt: [UInt8], nonce: [UInt8], wrapped: [UInt8])
        /// Mode 02: a hardware protector's name and its opaque blob.
        case hardware(name: String, blob: [UInt8])
    }

    /// Consecutive wrong PINs so far (always 0 outside PIN mode).
    var failedAttempts: UInt8
    /// `MainKey.check` of the key this file holds.
    var keyCheck: [UInt8]
    var body: Body

    static let magic: [UInt8] = Array("PRLYMKEY".utf8)
    static let version: UInt8 = 0x01
    /// magic(8) version(1) mode(1) failedAttempts(1) keyCheck(16) bodyLength(2).
    static let headerLength = 29
    static let checksumLength = 32
    /// A file larger than this is refused unread: the largest valid file (hardware mode) is smaller.
    static let maximumFileSize = 8192
    static let maximumNameBytes = 64
    static let maximumBlobBytes = 4096
    /// PIN mode body: salt(16) nonce(12) ciphertext(32) tag(16).
    static let pinBodyLength = 76

    /// The mode byte of `body`.
    var modeByte: UInt8 {
        switch body {
        case .none: 0x00
        case .pin: 0x01
        case .hardware: 0x02
        }
    }

    /// The protection this file records.
    var protection: VaultProtection {
        switch body {
        case .none: .none
        case .pin: .pin
        case .hardware(let name, _): .hardware(name)
        }
    }

    /// The associated data of the PIN wrap: magic || version || mode, so the wrap is bound to its format.
    static func wrapAssociatedData(mode: UInt8) -> [UInt8] {
        magic + [version, mode]
    }

    /// The file's bytes, checksum included.
    func encoded() -> [UInt8] {
        var bodyBytes: [UInt8]
        switch body {
        case .none(let key):
            bodyBytes = key
        case .pin(let salt, let nonce, let wrapped):
            bodyBytes = salt + nonce + wrapped
        case .hardware(let name, let blob):
            let nameBytes = Array(name.utf8)
            bodyBytes = [UInt8(nameBytes.count)] + nameBytes + blob
        }
        var out = Self.magic + [Self.version, modeByte, failedAttempts] + keyCheck
        out.appendBigEndian(UInt16(bodyBytes.count))
        out += bodyBytes
        bodyBytes.resetBytes()
        out += SHA256.hash(data: out)
        return out
    }

    /// Parses a file: damage of any kind is `.corrupt`, a later version `.unsupportedVersion`.
    static func decode(_ bytes: [UInt8]) throws(VaultError) -> MainKeyFileContents {
        guard bytes.count > magic.count, Array(bytes[0..<magic.count]) == magic else { throw .corrupt }
        // The version comes before the checksum: a later version may lay the file out differently.
        guard bytes[8] == version else { throw .unsupportedVersion(bytes[8]) }
        guard bytes.count >= headerLength + checksumLength, bytes.count <= maximumFileSize else { throw .corrupt }
        let checked = bytes.count - checksumLength
        let checksum = Array(SHA256.hash(data: bytes[0..<checked]))
        guard ConstantTime.equals(checksum, bytes[checked...]) else { throw .corrupt }

        let mode = bytes[9]
        let failedAttempts = bytes[10]
        let keyCheck = Array(bytes[11..<27])
        let bodyLength = Int(bytes[27]) << 8 | Int(bytes[28])
        guard headerLength + bodyLength == checked else { throw .corrupt }
        let body = Array(bytes[headerLength..<checked])
        switch mode {
        case 0x00:
            guard body.count == MainKey.byteCount, failedAttempts == 0 else { throw .corrupt }
            return MainKeyFileContents(failedAttempts: 0, keyCheck: keyCheck, body: .none(key: body))
        case 0x01:
            guard body.count == pinBodyLength, Int(failedAttempts) <= MainKeyFile.maximumAttempts else {
                throw .corrupt
            }
            let pin = Body.pin(salt: Array(body[0..<16]), nonce: Array(body[16..<28]), wrapped: Array(body[28...]))
            return MainKeyFileContents(failedAttempts: failedAttempts, keyCheck: keyCheck, body: pin)
        case 0x02:
            guard failedAttempts == 0, let nameLength = body.first.map(Int.init), (1...maximumNameBytes).contains(nameLength),
                body.count > 1 + nameLength, body.count - 1 - nameLength <= maximumBlobBytes,
                let name = String(validating: body[1..<(1 + nameLength)], as: UTF8.self)
            else { throw .corrupt }
            return MainKeyFileContents(
                failedAttempts: 0, keyCheck: keyCheck, body: .hardware(name: name, blob: Array(body[(1 + nameLength)...])))
        default:
            throw .corrupt
        }
    }
}
