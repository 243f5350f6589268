#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// A read message as text, the way `parley pgp read-mail` and `parley mail read` show it: headers, then each
/// block labelled with whether it was decrypted and who signed it, attachments listed, and a line for each
/// part that could not be read saying what to pass.
public enum MailTranscript {
    /// The lines of `mail`, attachments listed but not saved.
    public static func lines(_ mail: Mail) -> (lines: [String], saved: Int) {
        lines(mail, saving: { (_: MailAttachment) throws(Never) -> String? in nil })
    }

    /// The lines of `mail`, `save` storing each attachment and returning where it went; the line then says so.
    /// Returns the lines and how many attachments were saved.
    public static func lines<E: Error>(_ mail: Mail, save: (MailAttachment) throws(E) -> String) throws(E) -> (lines: [String], saved: Int) {
        try lines(mail, saving: { (attachment: MailAttachment) throws(E) -> String? in try save(attachment) })
    }

    /// The lines, `save` returning where an attachment went, or nil when it is only listed.
    private static func lines<E: Error>(_ mail: Mail, saving save: (MailAttachment) throws(E) -> String?) throws(E) -> (lines: [String], saved: Int) {
        var lines: [String] = []
        if let from = mail.from { lines.append("From:    \(from)") }
        if let to = mail.to { lines.append("To:      \(to)") }
        if let subject = mail.subject { lines.append("Subject: \(subject)") }
        if let date = mail.date { lines.append("Date:    \(date)") }
        lines.append("")
        var saved = 0
        for block in mail.blocks {
            switch block {
            case .plainText(let text, let signature):
                lines.append(label(signature, encrypted: false))
                lines.append(text)
            case .decryptedText(let text, let signature):
                lines.append(label(signature, encrypted: true))
                lines.append(text)
            case .attachment(let attachment):
                var line = "[attachment] \(attachment.safeName) (\(attachment.data.count) B, \(attachment.mediaType)"
                    + (attachment.wasEncrypted ? ", decrypted" : "") + ")"
                if let place = try save(attachment) {
                    line += " → saved to \(place)"
                    saved += 1
                }
                lines.append(line)
            case .unsupportedCharset(let charset):
                lines.append("[a part in the unsupported charset \(charset) is not shown]")
            case .error(.needsPassword):
                lines.append("[could not read a part: \(MailError.needsPassword) (pass --password or --password-file FILE)]")
            case .error(.needsPassphrase):
                lines.append("[could not read a part: \(MailError.needsPassphrase) (pass --passphrase-file FILE or set PARLEY_PGP_PASSPHRASE)]")
            case .error(let error):
                lines.append("[could not read a part: \(error)]")
            }
        }
        return (lines, saved)
    }

    /// The line above a text block: whether it was encrypted and what its signature says.
    public static func label(_ signature: SignatureStatus, encrypted: Bool) -> String {
        let kind = encrypted ? "── decrypted" : "── plain text"
        switch signature {
        case .none: return "\(kind), not signed ──"
        case .valid(let fingerprint): return "\(kind), signed by \(Hex.upper(fingerprint)) (good signature) ──"
        case .bad(let why): return "\(kind), BAD SIGNATURE: \(why) ──"
        case .unknownSigner(let keyID): return "\(kind), signed by an unknown key \(keyID.map { Hex.upper($0) } ?? "") ──"
        }
    }

    /// Whether a message may hold something encrypted: an armored message, PGP/MIME, or an attached .pgp/.gpg
    /// file (binary OpenPGP, so no armor line shows it). Only the first 64 MiB are looked at.
    /// The bytes are searched as they are (no text is made of 64 MiB); only the MIME type's case is ignored.
    public static func mayHoldEncrypted(_ eml: [UInt8]) -> Bool {
        eml.prefix(64 << 20).withUnsafeBytes { bytes in
            ["-----BEGIN PGP MESSAGE-----", "application/pgp-encrypted", ".pgp", ".gpg"].contains { ByteSearch.contains(bytes, $0) }
                || ByteSearch.containsIgnoringASCIICase(bytes, "multipart/encrypted", anchor: UInt8(ascii: "/"))
        }
    }
}
