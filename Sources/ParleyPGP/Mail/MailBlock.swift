/// What checking the signatures over a piece of mail found.
public enum SignatureStatus: Sendable, Equatable {
    /// Not signed.
    case none
    /// Signed and verified by the certificate with this (primary key) fingerprint.
    case valid(fingerprint: [UInt8])
    /// Signed by a key among the given certificates, but the signature does not hold (altered, expired…).
    case bad(String)
    /// Signed by a key that none of the given certificates holds (issuer key ID when the signature names it).
    case unknownSigner(keyID: [UInt8]?)

    /// The status of a set of signatures over the same data: valid when one verifies.
    static func of(_ verifications: [Verification], verifiers: [Certificate]) -> SignatureStatus {
        guard let first = verifications.first else { return .none }
        if let good = verifications.first(where: \.isGood), let fingerprint = good.certificateFingerprint {
            return .valid(fingerprint: fingerprint)
        }
        let issuer = first.signature.issuerKeyID
        let known = verifiers.contains { certificate in certificate.allKeys.contains { $0.keyID == issuer } }
        guard known else { return .unknownSigner(keyID: issuer) }
        return .bad(first.failure?.description ?? "bad signature: signature does not verify")
    }
}

/// A file carried by a message, decrypted when it was encrypted.
public struct MailAttachment: Sendable, Equatable {
    /// The file name (for a decrypted `x.pdf.pgp`: `x.pdf`), when the message gives one.
    public var name: String?
    /// The media type as declared (lowercased), e.g. `application/pdf`.
    public var mediaType: String
    /// The content, transfer encoding undone and decrypted.
    public var data: [UInt8]
    /// Whether the content was decrypted (an encrypted attachment, or a part of an encrypted message).
    public var wasEncrypted: Bool
    /// Signatures over the content.
    public var signature: SignatureStatus

    /// The name reduced to something safe to save under in any directory: the last path component,
    /// without control characters or leading dots, at most 200 bytes; `attachment` when nothing is left.
    public var safeName: String {
        let last = (name ?? "").split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var cleaned = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        while cleaned.hasPrefix(".") || cleaned.hasPrefix(" ") { cleaned.removeFirst() }
        while cleaned.utf8.count > 200 { cleaned.removeFirst() }
        return cleaned.isEmpty ? "attachment" : cleaned
    }

    /// An attachment; `wasEncrypted` and `signature` default to a plain, unsigned file.
    public init(name: String?, mediaType: String, data: [UInt8], wasEncrypted: Bool = false, signature: SignatureStatus = .none) {
        self.name = name
        self.mediaType = mediaType
        self.data = data
        self.wasEncrypted = wasEncrypted
        self.signature = signature
    }
}

/// One piece of a read message, in the order it appears.
public enum MailBlock: Sendable, Equatable {
    /// Text that was not encrypted (HTML already rendered to safe text), with its signature status.
    case plainText(String, signature: SignatureStatus)
    /// Text that was decrypted, with the status of the signatures inside or around the encryption.
    case decryptedText(String, signature: SignatureStatus)
    /// An attachment (decrypted when it was encrypted).
    case attachment(MailAttachment)
    /// A text part in a charset Parley does not decode (the name as declared); its text is not shown.
    case unsupportedCharset(String)
    /// A part that could not be read or decrypted, and why.
    case error(MailError)
}

/// A read message: the main header fields and its blocks.
public struct Mail: Sendable {
    /// The header fields of the message itself.
    public let headers: MailHeaders
    /// Subject, encoded words decoded.
    public var subject: String? { headers.decoded("Subject") }
    /// From, encoded words decoded.
    public var from: String? { headers.decoded("From") }
    /// To, encoded words decoded.
    public var to: String? { headers.decoded("To") }
    /// Date as written.
    public var date: String? { headers["Date"] }
    /// The blocks, in message order.
    public let blocks: [MailBlock]
    /// The raw `Autocrypt-Gossip` values of the first decrypted PGP/MIME entity's own header (never the outer
    /// header's: gossip counts only when it came encrypted).
    public var gossip: [String] = []

    public init(headers: MailHeaders, blocks: [MailBlock], gossip: [String] = []) {
        self.headers = headers
        self.blocks = blocks
        self.gossip = gossip
    }
}
