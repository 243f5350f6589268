import Foundation
import ParleyCrypto

/// The client's stored formats (docs/CLIENT.md §2–3) as bytes in, bytes out: for format checkers and
/// fuzzers, which cannot reach the internal types (release builds have no `@testable`).
public enum ClientFormats {
    /// Decodes a client envelope and encodes it again; the same bytes for any envelope that decodes.
    public static func reencodedEnvelope(_ bytes: [UInt8]) throws(ClientFormatError) -> [UInt8] {
        try ClientEnvelope(serialized: bytes).serialized
    }

    /// Decodes a retry request body and encodes it again; the same bytes for any request that decodes.
    public static func reencodedRetryRequest(_ bytes: [UInt8]) throws(ClientFormatError) -> [UInt8] {
        try RetryRequest(serialized: bytes).serialized
    }

    /// Decodes message content (JSON) and encodes it again in the canonical form (sorted keys).
    public static func reencodedContent(_ bytes: [UInt8]) throws(ClientFormatError) -> [UInt8] {
        try MessageContent.decode(bytes).encoded()
    }
}
