#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// Armored OpenPGP blocks inside the text of a mail (the way mail clients without PGP/MIME send):
/// `BEGIN PGP MESSAGE` is decrypted, `BEGIN PGP SIGNED MESSAGE` is verified, and the text around
/// them is kept as plain text blocks.
enum InlinePGP {
    private static let messageBegin = "-----BEGIN PGP MESSAGE-----"
    private static let messageEnd = "-----END PGP MESSAGE-----"
    private static let signedBegin = "-----BEGIN PGP SIGNED MESSAGE-----"
    private static let signatureEnd = "-----END PGP SIGNATURE-----"

    /// The blocks of `text`; text in a decrypted context stays "decrypted", with that context's signature.
    static func blocks(in text: String, keys: MailDecryption, context: MailReader.Context) -> [MailBlock] {
        var blocks: [MailBlock] = []
        var rest = Substring(text)
        func addText(_ piece: Substring) {
            let trimmed = piece.trimmingNewlines()
            guard !trimmed.trimmingSpaces().isEmpty else { return }
            blocks.append(context.encrypted ? .decryptedText(trimmed, signature: context.signature)
                                            : .plainText(trimmed, signature: context.signature))
        }
        while let begin = nextBegin(in: rest) {
            let endMarker = begin.signed ? signatureEnd : messageEnd
            guard let end = rest[begin.range.upperBound...].firstTextRange(of: endMarker) else { break }
            addText(rest[..<begin.range.lowerBound])
            let armored = String(rest[begin.range.lowerBound..<end.upperBound])
            blocks.append(begin.signed ? cleartext(armored, keys: keys, context: context) : message(armored, keys: keys, context: context))
            rest = rest[end.upperBound...]
        }
        addText(rest)
        return blocks
    }

    /// The first BEGIN line at the start of a line, and whether it opens a cleartext-signed message.
    private static func nextBegin(in text: Substring) -> (range: Range<Substring.Index>, signed: Bool)? {
        var search = text[...]
        while let found = search.firstTextRange(of: "-----BEGIN PGP ") {
            let atLineStart = found.lowerBound == text.startIndex || text[text.index(before: found.lowerBound)] == "\n"
            if atLineStart {
                let line = text[found.lowerBound...].prefix { $0 != "\n" && $0 != "\r" }
                let label = line.trimmingSpaces()
                if label == messageBegin { return (found.lowerBound..<line.endIndex, false) }
                if label == signedBegin { return (found.lowerBound..<line.endIndex, true) }
            }
            search = text[found.upperBound...]
        }
        return nil
    }

    private static func message(_ armored: String, keys: MailDecryption, context: MailReader.Context) -> MailBlock {
        do {
            let result = try keys.decrypt(Array(armored.utf8))
            let signature = SignatureStatus.of(result.verifications, verifiers: keys.verifiers)
            let text = MailReader.displayText(String(decoding: result.literal.data, as: UTF8.self)).trimmingNewlines()
            // A message that was signed but not encrypted is plain text with a signature.
            if result.sessionKey == nil, !context.encrypted { return .plainText(text, signature: signature) }
            return .decryptedText(text, signature: signature == .none ? context.signature : signature)
        } catch {
            return .error(MailError(reading: error))
        }
    }

    private static func cleartext(_ armored: String, keys: MailDecryption, context: MailReader.Context) -> MailBlock {
        do {
            let (text, signed, signatures) = try CleartextSignature.read(armored)
            let verifications = signatures.map { Verification.check($0, data: signed, certificates: keys.verifiers, now: keys.now) }
            let status = SignatureStatus.of(verifications, verifiers: keys.verifiers)
            let shown = text.hasSuffix("\n") ? String(text.dropLast()) : text
            return context.encrypted ? .decryptedText(shown, signature: status) : .plainText(shown, signature: status)
        } catch let error as PGPError {
            return .error(MailError(error))
        } catch {
            return .error(.formatError("unreadable"))
        }
    }
}
