#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// Writes an encrypted (optionally signed) PGP/MIME message (RFC 3156 §4) as .eml bytes: the text and
/// attachments become a multipart/mixed entity, which is signed and encrypted in one OpenPGP message
/// (RFC 3156 §6.2 combined method) to every recipient, to the sender's own certificate and to any passwords.
public struct MailComposer: Sendable {
    /// The From address ("Name <addr>").
    public var from: String
    /// The To addresses.
    public var to: [String]
    /// The Cc addresses.
    public var cc: [String] = []
    /// The subject (sent in the outer headers, which are not encrypted).
    public var subject: String
    /// The message text.
    public var text: String
    /// Files to attach (name, media type and data are used).
    public var attachments: [MailAttachment] = []
    /// Certificates to encrypt to.
    public var recipients: [Certificate] = []
    /// The sender's own certificate, also encrypted to so the sent copy stays readable.
    public var sender: Certificate?
    /// Passwords the message is also (or only) encrypted to, one SKESK each; never stored.
    public var passwords: [[UInt8]] = []
    /// A key to sign with, when the message should be signed.
    public var signer: UnlockedKey?
    /// The Message-ID this answers (without angle brackets), for In-Reply-To and References.
    public var inReplyTo: String?
    /// The References of the message this answers (angle brackets included), the thread so far.
    public var references: String?
    /// The Date header and the OpenPGP creation time.
    public var date: Date
    /// The value of our `Autocrypt:` header (docs/MAIL.md §6.1), folded by the composer; nil for none.
    public var autocrypt: String?
    /// `Autocrypt-Gossip:` values, written into the encrypted inner entity only.
    public var gossip: [String] = []

    /// A message from `from` to `to` about `subject`, dated `date`.
    public init(from: String, to: [String], subject: String, text: String, date: Date = Date()) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.date = date
    }

    /// The .eml, with boundaries and Message-ID drawn from the system random generator.
    public func compose() throws -> [UInt8] {
        var random = SystemRandomNumberGenerator()
        return try compose(using: &random)
    }

    /// The .eml; boundaries and Message-ID come from `random`, so the MIME structure is reproducible
    /// in tests (the OpenPGP session key and ECDH ephemerals always come from the system generator).
    public func compose<R: RandomNumberGenerator>(using random: inout R) throws -> [UInt8] {
        let everyone = recipients + (sender.map { [$0] } ?? [])
        guard !everyone.isEmpty || !passwords.isEmpty else { throw PGPError.unusableKey("no recipients or passwords") }
        let innerBoundary = Self.token(&random)
        let outerBoundary = Self.token(&random)
        let inner = mixed(boundary: innerBoundary, gossip: gossip)

        let now = UInt32(clamping: Int64(date.timeIntervalSince1970))
        var encryptor = Encryptor(now: now)
        encryptor.recipients = everyone
        encryptor.passwords = passwords
        encryptor.signers = signer.map { [$0] } ?? []
        let armored = Armor.encode(try encryptor.encrypt(Array(inner.utf8)), as: .message)
            .replacingEvery("\n", with: "\r\n")

        var out = headerFields(messageID: Self.token(&random))
        out += "Content-Type: multipart/encrypted; protocol=\"application/pgp-encrypted\"; boundary=\"\(outerBoundary)\"\r\n\r\n"
        out += "This is an OpenPGP/MIME encrypted message (RFC 4880 and 3156)\r\n"
        out += "--\(outerBoundary)\r\nContent-Type: application/pgp-encrypted\r\nContent-Description: PGP/MIME version identification\r\n\r\n"
        out += "Version: 1\r\n\r\n"
        out += "--\(outerBoundary)\r\nContent-Type: application/octet-stream; name=\"encrypted.asc\"\r\n"
        out += "Content-Description: OpenPGP encrypted message\r\nContent-Disposition: inline; filename=\"encrypted.asc\"\r\n\r\n"
        out += armored
        out += "\r\n--\(outerBoundary)--\r\n"
        return Array(out.utf8)
    }

    /// The text and attachments as one multipart/mixed entity (its own Content-Type line first).
    func mixed(boundary: String, gossip: [String] = []) -> String {
        var inner = gossip.map { Self.folded("Autocrypt-Gossip", $0) }.joined()
        inner += "Content-Type: multipart/mixed; boundary=\"\(boundary)\"\r\n\r\n"
        inner += "--\(boundary)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        inner += TransferEncoding.encodeBase64(Array(text.utf8))
        for file in attachments {
            let name = Self.parameter("name", file.name ?? "attachment.bin")
            let filename = Self.parameter("filename", file.name ?? "attachment.bin")
            inner += "--\(boundary)\r\nContent-Type: \(Self.mediaType(file.mediaType)); \(name)\r\n"
            inner += "Content-Disposition: attachment; \(filename)\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            inner += TransferEncoding.encodeBase64(file.data)
        }
        inner += "--\(boundary)--\r\n"
        return inner
    }

    /// From, To, Cc, Subject, Date, Message-ID and MIME-Version, each on its own CRLF line.
    func headerFields(messageID: String) -> String {
        var out = "From: \(Self.header(from))\r\n"
        out += "To: \(to.map(Self.header).joined(separator: ",\r\n "))\r\n"
        if !cc.isEmpty { out += "Cc: \(cc.map(Self.header).joined(separator: ",\r\n "))\r\n" }
        out += "Subject: \(EncodedWord.encode(Self.header(subject)))\r\n"
        out += "Date: \(Self.rfc5322Date(date))\r\n"
        out += "Message-ID: <\(messageID)@parley.invalid>\r\n"
        if let inReplyTo = inReplyTo.map(Self.messageID), !inReplyTo.isEmpty {
            out += "In-Reply-To: <\(inReplyTo)>\r\n"
            let earlier = references.map(Self.header).map { $0 + " " } ?? ""
            out += "References: \(earlier)<\(inReplyTo)>\r\n"
        }
        if let autocrypt { out += Self.folded("Autocrypt", autocrypt) }
        out += "MIME-Version: 1.0\r\n"
        return out
    }

    /// An unencrypted, unsigned message (`parley mail send --plain`): the same headers, then the text and
    /// attachments as multipart/mixed.
    public func composePlain() -> [UInt8] {
        var random = SystemRandomNumberGenerator()
        let boundary = Self.token(&random)
        return Array((headerFields(messageID: Self.token(&random)) + mixed(boundary: boundary)).utf8)
    }

    /// 24 random hex digits: a boundary that cannot occur in base64 or armor lines (they have no `=_`).
    static func token<R: RandomNumberGenerator>(_ random: inout R) -> String {
        "=_" + Hex.lower((0..<12).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// `Name: value` folded (RFC 5322 §2.2.3) at spaces, or inside a long unbroken run (base64 `keydata`,
    /// whose readers drop all whitespace), so no line passes 78 characters.
    static func folded(_ name: String, _ value: String) -> String {
        var lines: [String] = []
        var line = name + ":"
        for word in header(value).split(separator: " ") {
            var word = Substring(word)
            if line.count + 1 + word.count > 78, line.count > 1 { lines.append(line); line = "" }
            while line.count + 1 + word.count > 78 {
                let room = max(1, 77 - line.count)
                line += " " + word.prefix(room)
                word = word.dropFirst(room)
                lines.append(line)
                line = ""
            }
            line += " " + word
        }
        lines.append(line)
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A header value with line breaks removed, so no value can inject header fields.
    static func header(_ value: String) -> String {
        value.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A Message-ID's inside (no brackets), reduced to the characters RFC 5322's msg-id allows.
    static func messageID(_ value: String) -> String {
        value.trimmingScalars { "<> \t".unicodeScalars.contains($0) }.filter { $0.isASCII && !$0.isWhitespace && $0 != "<" && $0 != ">" && !$0.isNewline }
    }

    /// A media type reduced to its token characters (a caller's string never breaks the header).
    static func mediaType(_ value: String) -> String {
        let cleaned = value.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || "/.+-_".contains($0)) }
        return cleaned.contains("/") ? cleaned : "application/octet-stream"
    }

    /// `name="value"` for ASCII names, else RFC 2231 `name*=utf-8''percent-encoded`.
    static func parameter(_ name: String, _ value: String) -> String {
        let value = header(value)
        if value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            return "\(name)=\"\(value.replacingEvery("\\", with: "\\\\").replacingEvery("\"", with: "\\\""))\""
        }
        let encoded = value.utf8.map { byte -> String in
            let character = Character(Unicode.Scalar(byte))
            return byte < 0x80 && (character.isLetter || character.isNumber || ".-_".contains(character)) ? String(character) : "%" + Hex.upper([byte])
        }.joined()
        return "\(name)*=utf-8''\(encoded)"
    }

    /// An RFC 5322 date in UTC, e.g. `Sun, 22 Nov 2026 13:18:48 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        UTCTime(date).rfc5322
    }
}
