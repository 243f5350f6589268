import Foundation

/// One `Autocrypt:` or `Autocrypt-Gossip:` header value (Autocrypt Level 1 §2.1, docs/MAIL.md §6.1).
public struct AutocryptHeader: Sendable, Equatable {
    /// The address the key is for, lowercased.
    public var address: String
    /// `prefer-encrypt=mutual`.
    public var preferMutual: Bool
    /// The binary OpenPGP certificate.
    public var keydata: [UInt8]

    /// The largest `keydata` taken (decoded bytes); Autocrypt keys are a few hundred bytes to a few KiB.
    public static let largestKey = 64 * 1024

    public init(address: String, preferMutual: Bool, keydata: [UInt8]) {
        self.address = address.lowercased()
        self.preferMutual = preferMutual
        self.keydata = keydata
    }

    /// Reads a header value; nil when it is not one Level 1 lets a reader take: `addr` or `keydata` missing or
    /// repeated, an unknown critical attribute (a name not starting with `_`), keydata that is not base64 or is
    /// over `largestKey`. Whether the key itself is usable is checked apart (`LearnedKey`).
    public init?(_ value: String) {
        var attributes: [String: String] = [:]
        for part in value.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            let name = pair[0].trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            guard !name.isEmpty, attributes[name] == nil else { return nil }
            attributes[name] = String(pair[1])
        }
        for name in attributes.keys where !name.hasPrefix("_") && !["addr", "prefer-encrypt", "keydata"].contains(name) {
            return nil
        }
        guard let address = attributes["addr"]?.trimmingCharacters(in: .whitespacesAndNewlines), MailAddresses.isAddress(address),
              let encoded = attributes["keydata"]?.filter({ !$0.isWhitespace }),
              encoded.count <= (Self.largestKey / 3 + 1) * 4,
              let keydata = Data(base64Encoded: encoded), !keydata.isEmpty
        else { return nil }
        self.init(address: address,
                  preferMutual: attributes["prefer-encrypt"]?.trimmingCharacters(in: .whitespaces).lowercased() == "mutual",
                  keydata: Array(keydata))
    }

    /// The header value as Parley writes it: `addr=…; prefer-encrypt=mutual; keydata=…` (the composer folds it).
    public var value: String {
        "addr=\(address);" + (preferMutual ? " prefer-encrypt=mutual;" : "") + " keydata=\(Data(keydata).base64EncodedString())"
    }

    /// A gossip value: `addr` and `keydata` only (Level 1 §2.2.1).
    public var gossipValue: String {
        "addr=\(address); keydata=\(Data(keydata).base64EncodedString())"
    }
}
