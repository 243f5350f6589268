#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Minimal PEM framing: a label and base64 bytes between `-----BEGIN …-----` and `-----END …-----`.
///
/// Used for key formats swift-crypto does not frame itself (FileLock's raw points, X-Wing keys).
public struct PEM: Sendable, Equatable {
    /// The text after `BEGIN ` in the first line, e.g. `PUBLIC KEY`.
    public let label: String
    /// The decoded body.
    public let bytes: [UInt8]

    /// Creates a document from a label and its body bytes.
    public init(label: String, bytes: [UInt8]) {
        self.label = label
        self.bytes = bytes
    }

    /// Parses the first PEM block in `text`; nil when there is none or its body is not base64.
    public init?(parsing text: String) {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") && $0.hasSuffix("-----") }) else {
            return nil
        }
        let label = String(lines[begin].dropFirst(11).dropLast(5))
        guard let end = lines[(begin + 1)...].firstIndex(of: "-----END \(label)-----") else { return nil }
        let body = lines[(begin + 1)..<end].joined()
        guard let decoded = Data(base64Encoded: body) else { return nil }
        self.label = label
        self.bytes = Array(decoded)
    }

    /// The PEM text with 64-character lines and a final newline.
    public var text: String {
        let base64 = Data(bytes).base64EncodedString()
        var lines = ["-----BEGIN \(label)-----"]
        var index = base64.startIndex
        while index < base64.endIndex {
            let next = base64.index(index, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[index..<next]))
            index = next
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + "\n"
    }
}
