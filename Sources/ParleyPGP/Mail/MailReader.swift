#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// Reads an .eml message into blocks the way FlowCrypt's `parseDecryptMsg` does: PGP/MIME
/// (RFC 3156 multipart/encrypted and multipart/signed), inline armored messages and cleartext
/// signatures in text parts, encrypted attachments, HTML rendered to safe text.
///
/// Structural problems of the message as a whole (limits, no header fields) are thrown as `MailError`;
/// a part that cannot be decoded or decrypted becomes an `.error` block and the rest is still read.
public struct MailReader {
    var parser: MIMEParser
    let keys: MailDecryption
    /// The first decrypted entity's `Autocrypt-Gossip` values.
    var gossip: [String]?

    /// Reads `eml` with secret `keys` (locked ones unlocked with `passphrases`, or taken from `cache`)
    /// and, for parts encrypted to a password, `passwords`; verifies signatures against `verifyWith` at
    /// `now` (seconds since 1970).
    public static func read(eml: [UInt8], keys: [Certificate], passphrases: [[UInt8]], passwords: [[UInt8]] = [],
                            verifyWith: [Certificate], now: UInt32 = UInt32(Date().timeIntervalSince1970),
                            cache: DecryptedKeyCache? = nil, limits: MailLimits = MailLimits()) throws -> Mail {
        var reader = MailReader(parser: MIMEParser(limits: limits),
                                keys: MailDecryption(keys: keys, passphrases: passphrases, passwords: passwords, verifiers: verifyWith,
                                                      now: now, cache: cache, decompressionLimit: limits.maxBytes))
        let root = try reader.parser.parse(eml[...], depth: 0)
        let blocks = try reader.blocks(root, depth: 0, context: Context(encrypted: false, signature: .none))
        return Mail(headers: root.headers, blocks: blocks, gossip: reader.gossip ?? [])
    }

    /// Whether the content being read came out of a decryption, and the signatures over it.
    struct Context {
        var encrypted: Bool
        var signature: SignatureStatus
    }

    /// The blocks of one entity.
    mutating func blocks(_ part: MIMEPart, depth: Int, context: Context) throws -> [MailBlock] {
        let type = part.contentType.value
        switch type {
        case "multipart/encrypted":
            return try encrypted(part, depth: depth, context: context)
        case "multipart/signed":
            return try signed(part, depth: depth, context: context)
        case "multipart/alternative":
            // Prefer the plain text over HTML: it needs no rendering and shows what was written.
            let chosen = part.parts.first { $0.contentType.value == "text/plain" && !$0.isAttachment } ?? part.parts.last
            return try chosen.map { try blocks($0, depth: depth + 1, context: context) } ?? []
        case _ where part.isMultipart:
            return try part.parts.flatMap { try blocks($0, depth: depth + 1, context: context) }
        case "application/pgp-encrypted" where part.filename == nil:
            return []  // the RFC 3156 "Version: 1" part
        case "text/plain" where !part.isAttachment, "text/html" where !part.isAttachment:
            return text(part, context: context)
        default:
            return attachment(part, context: context)
        }
    }

    /// RFC 3156 §4: a version part, then the encrypted message as application/octet-stream.
    private mutating func encrypted(_ part: MIMEPart, depth: Int, context: Context) throws -> [MailBlock] {
        guard let payload = part.parts.first(where: { $0.contentType.value == "application/octet-stream" }) ?? part.parts.last else {
            return [.error(.malformed("multipart/encrypted without its encrypted part"))]
        }
        let result: Decryptor.Result
        do {
            result = try keys.decrypt(payload.decodedBody())
        } catch {
            return [.error(MailError(reading: error))]
        }
        let signature = SignatureStatus.of(result.verifications, verifiers: keys.verifiers)
        let inner = Context(encrypted: true, signature: signature == .none ? context.signature : signature)
        return try decryptedEntity(result.literal.data, depth: depth, context: inner)
    }

    /// Decrypted content of a PGP/MIME message is a MIME entity; some writers put bare text there.
    private mutating func decryptedEntity(_ data: [UInt8], depth: Int, context: Context) throws -> [MailBlock] {
        let entity: MIMEPart
        do {
            entity = try parser.parse(data[...], depth: depth + 1)
        } catch MailError.malformed {
            return [.decryptedText(Self.displayText(String(decoding: data, as: UTF8.self)), signature: context.signature)]
        }
        if gossip == nil {
            gossip = entity.headers.values("Autocrypt-Gossip")
        }
        return try blocks(entity, depth: depth + 1, context: context)
    }

    /// RFC 3156 §5: the first part exactly as sent (line endings made CRLF), then a detached signature.
    private mutating func signed(_ part: MIMEPart, depth: Int, context: Context) throws -> [MailBlock] {
        guard part.parts.count >= 2 else {
            return [.error(.malformed("multipart/signed needs a signed part and a signature part"))]
        }
        let content = part.parts[0]
        if let signatureProtocol = part.contentType.parameters["protocol"]?.lowercased(), signatureProtocol != "application/pgp-signature" {
            // S/MIME and other signature kinds are not OpenPGP's to judge: the content is shown, no claim made.
            return try blocks(content, depth: depth + 1, context: context)
        }
        var status: SignatureStatus
        do {
            let signature = try part.parts[1].decodedBody()
            let verifications = try Verification.detached(signature, data: Self.canonicalCRLF(content.raw), certificates: keys.verifiers, now: keys.now)
            status = SignatureStatus.of(verifications, verifiers: keys.verifiers)
        } catch let error as MailError {
            status = .bad(error.description)
        } catch {
            status = .bad((error as? PGPError)?.description ?? "unreadable signature")
        }
        if status == .none { status = context.signature }
        return try blocks(content, depth: depth + 1, context: Context(encrypted: context.encrypted, signature: status))
    }

    /// Every line ending as CRLF: the form RFC 3156 signs, whatever the mail store did to it.
    static func canonicalCRLF(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 40)
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 0x0A && previous != 0x0D { out.append(0x0D) }
            out.append(byte)
            previous = byte
        }
        return out
    }

    /// A text part: decoded, HTML rendered, then split around inline armored blocks.
    private func text(_ part: MIMEPart, context: Context) -> [MailBlock] {
        let bytes: [UInt8]
        do {
            bytes = try part.decodedBody()
        } catch let error as MailError {
            return [.error(error)]
        } catch {
            return [.error(.malformed("unreadable part"))]
        }
        let charset = part.contentType.charset ?? "us-ascii"
        guard var text = Charset.decode(bytes, charset: charset) else { return [.unsupportedCharset(charset)] }
        if part.contentType.value == "text/html" { text = HTMLText.render(text) }
        return InlinePGP.blocks(in: Self.displayText(text), keys: keys, context: context)
    }

    /// Line endings as LF for display.
    static func displayText(_ text: String) -> String {
        text.replacingEvery("\r\n", with: "\n")
    }

    /// An attachment: decrypted when it is an OpenPGP message (.pgp, .gpg, .asc or PGP media types).
    private func attachment(_ part: MIMEPart, context: Context) -> [MailBlock] {
        let data: [UInt8]
        do {
            data = try part.decodedBody()
        } catch let error as MailError {
            return [.error(error)]
        } catch {
            return [.error(.malformed("unreadable part"))]
        }
        let type = part.contentType.value
        let name = part.filename ?? (type == "message/rfc822" ? "message.eml" : nil)
        let plain = MailAttachment(name: name, mediaType: type, data: data, wasEncrypted: context.encrypted, signature: context.signature)
        let lowered = name?.lowercased() ?? ""
        let pgpName = [".pgp", ".gpg", ".asc"].contains { lowered.hasSuffix($0) }
        guard pgpName || type == "application/pgp-encrypted", MailDecryption.looksEncrypted(data) else {
            return [.attachment(plain)]
        }
        do {
            let result = try keys.decrypt(data)
            var decrypted = plain
            if pgpName, let name { decrypted.name = String(name.dropLast(4)) }
            decrypted.data = result.literal.data
            decrypted.wasEncrypted = true
            let signature = SignatureStatus.of(result.verifications, verifiers: keys.verifiers)
            decrypted.signature = signature == .none ? context.signature : signature
            return [.attachment(decrypted)]
        } catch {
            // The encrypted file is still offered, after the reason it could not be opened.
            return [.error(MailError(reading: error)), .attachment(plain)]
        }
    }
}
