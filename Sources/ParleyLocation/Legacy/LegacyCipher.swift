import Crypto
import _CryptoExtras

/// Berry Picker Tracker's per-value encryption ("legacy"): AES-CBC with PKCS#7, a fresh 16-byte IV,
/// stored as `base64(ciphertext) + base64(iv)` with no separator (docs/FORMATS.md §13.1).
///
/// It has no integrity: anyone holding the server's data can swap or replay values unnoticed.
/// Parley reads and writes it only to interoperate; its own format is ``WaypointV2``.
public enum LegacyCipher {
    /// Length of the base64 IV at the end of every stored value.
    static let ivTextLength = 24
    /// Longest stored value accepted: far beyond any number's text, small enough to refuse abuse.
    public static let maxStoredLength = 1024

    /// Encrypts `text` under `key` with the given IV (exposed for known-answer tests).
    public static func encrypt(text: String, key: LegacyKey, iv: [UInt8]) throws(LocationError) -> String {
        guard iv.count == 16, let cbcIV = try? AES._CBC.IV(ivBytes: iv) else {
            throw .malformed("IV must be 16 bytes")
        }
        guard let ciphertext = try? AES._CBC.encrypt(Array(text.utf8), using: key.symmetricKey, iv: cbcIV) else {
            throw .malformed("encryption failed")
        }
        return Base64.encodeStandard(ciphertext) + Base64.encodeStandard(iv)
    }

    /// Encrypts `text` under `key` with a fresh random IV.
    public static func encrypt(text: String, key: LegacyKey) throws(LocationError) -> String {
        let iv = AES._CBC.IV()
        return try encrypt(text: text, key: key, iv: Array(iv))
    }

    /// Encrypts a number as the app does: its JavaScript `toString()` text.
    public static func encrypt(number: Double, key: LegacyKey) throws(LocationError) -> String {
        guard number.isFinite else { throw .outOfRange("not a finite number") }
        return try encrypt(text: JSNumber.string(number), key: key)
    }

    /// Decrypts a stored value to its text.
    public static func decryptText(_ stored: String, key: LegacyKey) throws(LocationError) -> String {
        let utf8 = stored.utf8
        guard utf8.count <= maxStoredLength else { throw .malformed("longer than \(maxStoredLength) characters") }
        guard utf8.count >= ivTextLength + 24 else { throw .malformed("too short to hold a ciphertext and an IV") }
        let split = stored.index(stored.endIndex, offsetBy: -ivTextLength)
        guard let ivBytes = Base64.decodeStandard(stored[split...]), ivBytes.count == 16,
              let iv = try? AES._CBC.IV(ivBytes: ivBytes)
        else { throw .malformed("the last 24 characters are not a base64 16-byte IV") }
        guard let ciphertext = Base64.decodeStandard(stored[..<split]) else {
            throw .malformed("ciphertext is not standard base64")
        }
        guard !ciphertext.isEmpty, ciphertext.count % 16 == 0 else {
            throw .malformed("ciphertext length is not a positive multiple of 16 bytes")
        }
        // A wrong key almost always shows up as bad padding; both are the one opaque error.
        guard let plaintext = try? AES._CBC.decrypt(ciphertext, using: key.symmetricKey, iv: iv) else {
            throw .couldNotDecrypt
        }
        guard let text = String(validating: plaintext, as: UTF8.self) else { throw .couldNotDecrypt }
        return text
    }

    /// Decrypts a stored value and reads it back as a number, as the app does with `parseFloat`.
    public static func decryptNumber(_ stored: String, key: LegacyKey) throws(LocationError) -> Double {
        let text = try decryptText(stored, key: key)
        guard let number = parseNumber(text) else { throw .invalidPlaintext("not a decimal number") }
        return number
    }

    /// Reads a JavaScript-printed decimal: digits, optional sign, point and exponent; nothing else.
    static func parseNumber(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.count <= 64,
              text.utf8.allSatisfy({ byte in
                  (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                      || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e")].contains(byte)
              }),
              let value = Double(text), value.isFinite
        else { return nil }
        return value
    }
}
