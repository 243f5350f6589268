import Crypto
import Foundation

/// Where a Web Key Directory keeps an address's key (draft-koch-openpgp-webkey-service §3.1, docs/MAIL.md §6.2).
public struct WKDLocation: Sendable, Equatable {
    /// The host asked.
    public let host: String
    /// The path and query asked.
    public let path: String

    /// The advanced method's location (`openpgpkey.DOMAIN`) then the direct method's (`DOMAIN`); nil when
    /// `address` is not `local@domain` with a plausible domain.
    public static func candidates(for address: String) -> [WKDLocation]? {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64 else { return nil }
        let domain = parts[1].lowercased()
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, domain.count <= 253,
              labels.allSatisfy({ !$0.isEmpty && $0.count <= 63 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } })
        else { return nil }
        let local = String(parts[0])
        let hash = hash(local: local)
        let query = "?l=" + (local.addingPercentEncoding(withAllowedCharacters: Self.queryCharacters) ?? "")
        return [
            WKDLocation(host: "openpgpkey.\(domain)", path: "/.well-known/openpgpkey/\(domain)/hu/\(hash)\(query)"),
            WKDLocation(host: domain, path: "/.well-known/openpgpkey/hu/\(hash)\(query)"),
        ]
    }

    /// What `l=` carries unescaped: ASCII letters and digits and RFC 3986's unreserved and query characters, less
    /// `&`, `=`, `'`, `#` and `%` (as Sequoia's `sq wkd url` writes it).
    static let queryCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$()*+,;:@/?")

    /// z-base-32 of the SHA-1 of the lowercased local part: 32 characters.
    static func hash(local: String) -> String {
        // Only ASCII letters are mapped to lower case (the draft's rule), so a non-ASCII local part hashes as written.
        let lowered = String(local.unicodeScalars.map { Character($0.isASCII ? Unicode.Scalar(UInt8(ascii: $0).lowercasedASCII) : $0) })
        return ZBase32.encode(Array(Insecure.SHA1.hash(data: Array(lowered.utf8))))
    }

    /// The location as a URL, for messages.
    public var url: String { "https://\(host)\(path)" }
}

private extension UInt8 {
    init(ascii scalar: Unicode.Scalar) { self = UInt8(truncatingIfNeeded: scalar.value) }
    var lowercasedASCII: UInt8 { (0x41...0x5A).contains(self) ? self + 0x20 : self }
}
