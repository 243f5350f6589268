import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MainKey {
    /// The format version byte that starts every sealed value.
    static let sealVersion: UInt8 = 0x01
    /// version(1) + nonce(12) + tag(16): the length of a sealed empty value.
    static let sealOverhead = 29
    /// The associated-data prefix; a 0x00 separates it from the binding.
    static let sealContext = "Parley-vault-v1"

    /// Seals a value bound to `binding` (e.g. "sessions/ann@x.org.2"): format documented in FORMATS.md:
    /// 0x01 || nonce(12) || ciphertext || tag(16), AES-256-GCM, AD = "Parley-vault-v1" || 0x00 || binding UTF-8
    public func seal(_ plaintext: some DataProtocol, binding: String) -> [UInt8] {
        seal(plaintext, binding: binding, nonce: AES.GCM.Nonce())
    }

    /// Seals with a given nonce: tests reproduce vectors with it; real callers use the random one.
    func seal(_ plaintext: some DataProtocol, binding: String, nonce: AES.GCM.Nonce) -> [UInt8] {
        // AES-GCM with a 32-byte key and a 12-byte nonce cannot fail.
        let box = try! AES.GCM.seal(plaintext, using: key, nonce: nonce, authenticating: Self.associatedData(binding))
        return [Self.sealVersion] + Array(nonce) + Array(box.ciphertext) + Array(box.tag)
    }

    /// Opens a sealed value; a wrong binding, key or any altered byte is `.cannotDecrypt`.
    public func open(_ sealed: some DataProtocol, binding: String) throws(VaultError) -> [UInt8] {
        let bytes = Array(sealed)
        guard let version = bytes.first else { throw .corrupt }
        guard version == Self.sealVersion else { throw .unsupportedVersion(version) }
        guard bytes.count >= Self.sealOverhead else { throw .corrupt }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: bytes[1..<13]), ciphertext: bytes[13..<(bytes.count - 16)],
                tag: bytes[(bytes.count - 16)...])
            return Array(try AES.GCM.open(box, using: key, authenticating: Self.associatedData(binding)))
        } catch {
            throw .cannotDecrypt
        }
    }

    /// "Parley-vault-v1" || 0x00 || binding: the separator keeps the context and binding apart.
    static func associatedData(_ binding: String) -> [UInt8] {
        Array(sealContext.utf8) + [0x00] + Array(binding.utf8)
    }
}
