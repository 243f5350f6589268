import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

extension MainKeyFileContents {
    /// Contents that keep `key` as it is (mode none).
    static func plain(_ key: MainKey) -> MainKeyFileContents {
        MainKeyFileContents(failedAttempts: 0, keyCheck: key.check, body: .none(key: key.withUnsafeBytes { Array($0) }))
    }

    /// Contents that keep `key` sealed under scrypt(`pin`) with a fresh salt and nonce from `random`.
    static func pinWrapped(_ key: MainKey, pin: String, random: some RandomSource) throws(VaultError) -> MainKeyFileContents {
        let salt = random.bytes(PIN.saltLength)
        let nonce = random.bytes(12)
        let kek = try PIN.keyEncryptionKey(pin, salt: salt)
        let box = key.withUnsafeBytes { bytes in
            // AES-GCM with a 32-byte key and a 12-byte nonce cannot fail.
            try! AES.GCM.seal(
                bytes, using: kek, nonce: AES.GCM.Nonce(data: nonce), authenticating: wrapAssociatedData(mode: 0x01))
        }
        return MainKeyFileContents(
            failedAttempts: 0, keyCheck: key.check,
            body: .pin(salt: salt, nonce: nonce, wrapped: Array(box.ciphertext) + Array(box.tag)))
    }

    /// Contents that keep `key` wrapped by a hardware protector.
    static func hardwareWrapped(_ key: MainKey, protector: some HardwareKeyProtector) throws(VaultError) -> MainKeyFileContents {
        let nameLength = protector.name.utf8.count
        guard (1...maximumNameBytes).contains(nameLength) else {
            throw .io("hardware protector name must be 1 to \(maximumNameBytes) bytes of UTF-8")
        }
        let blob: [UInt8]
        do {
            blob = try protector.wrap(key)
        } catch {
            throw .io("the hardware key \(protector.name) could not wrap the MainKey: \(error)")
        }
        guard (1...maximumBlobBytes).contains(blob.count) else {
            throw .io("the hardware key \(protector.name) returned a blob of \(blob.count) bytes; 1 to \(maximumBlobBytes) fit the file")
        }
        return MainKeyFileContents(failedAttempts: 0, keyCheck: key.check, body: .hardware(name: protector.name, blob: blob))
    }

    /// The PIN-mode key, or nil when the PIN does not authenticate (a wrong PIN: the checksum already passed).
    static func unwrapPIN(salt: [UInt8], nonce: [UInt8], wrapped: [UInt8], pin: String) throws(VaultError) -> MainKey? {
        let kek = try PIN.keyEncryptionKey(pin, salt: salt)
        guard let box = try? AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: nonce), ciphertext: wrapped.prefix(32), tag: wrapped.suffix(16)),
            var bytes = try? Array(AES.GCM.open(box, using: kek, authenticating: wrapAssociatedData(mode: 0x01)))
        else { return nil }
        defer { bytes.resetBytes() }
        return try MainKey(bytes: bytes)
    }
}
