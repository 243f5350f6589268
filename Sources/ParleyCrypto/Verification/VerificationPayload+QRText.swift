#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension VerificationPayload {
    /// What every verification QR code's text starts with (FORMATS.md §15).
    public static let qrTextPrefix = "parley-verify:"

    /// The text put in the QR code: the prefix and the payload in unpadded base64url (RFC 4648 §5).
    ///
    /// Text rather than raw bytes, so any scanner (a phone camera app, zbar without binary mode) hands it
    /// over unchanged, and a person can read what it is.
    public var qrText: String {
        Self.qrTextPrefix + Data(encoded()).base64EncodedString()
            .replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }

    /// Reads a scanned QR code's text; anything `qrText` could not have produced is refused.
    public init(qrText: String) throws(VerificationError) {
        guard qrText.hasPrefix(Self.qrTextPrefix) else { throw .notAVerificationCode }
        let body = qrText.dropFirst(Self.qrTextPrefix.count)
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        // 255 bytes of id + 34 bytes of framing and key is at most 386 characters.
        guard !body.isEmpty, body.count <= 400, body.allSatisfy(alphabet.contains), body.count % 4 != 1 else {
            throw .notAVerificationCode
        }
        var standard = String(body).replacing("-", with: "+").replacing("_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        guard let bytes = Data(base64Encoded: standard) else { throw .notAVerificationCode }
        try self.init(decoding: bytes)
        // Unused bits in the last character must be zero: one payload, one text.
        guard qrText == self.qrText else { throw .notAVerificationCode }
    }

    /// Reads a scanned QR code's raw bytes (UTF-8 text); see `init(qrText:)`.
    public init(scanned bytes: [UInt8]) throws(VerificationError) {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notAVerificationCode }
        try self.init(qrText: text)
    }
}
