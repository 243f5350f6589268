import Foundation
import Testing
@testable import ParleyPGP

/// The .eml vectors in Vectors/mail, written and parsed by Python's `email` package
/// (scripts/vectors/mail_vectors.py): Parley must read what Python reads, and refuse the invalid ones.
struct MailVectorTests {
    struct Expected: Decodable {
        struct Valid: Decodable {
            struct Text: Decodable { let type: String, text: String }
            struct File: Decodable { let name: String?, type: String, hex: String }
            let file: String, subject: String, from: String
            let texts: [Text]
            let attachments: [File]
        }
        struct Invalid: Decodable { let file: String, error: String }
        let valid: [Valid]
        let invalid: [Invalid]
    }

    static func eml(_ name: String) throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Vectors/mail") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return [UInt8](try Data(contentsOf: url))
    }

    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(eml("expected.json")))
    }

    /// Python's text with its CRLFs as LF and outer line breaks trimmed, as blocks are shown.
    static func shown(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .newlines)
    }

    @Test func validVectorsReadAsPythonReadsThem() throws {
        let vectors = try Self.expected()
        #expect(vectors.valid.count == 5)
        for vector in vectors.valid {
            let mail = try MailReader.read(eml: Self.eml(vector.file), keys: [], passphrases: [], verifyWith: [])
            #expect(mail.subject == vector.subject, "\(vector.file)")
            if vector.from != "None" { #expect(mail.from == vector.from, "\(vector.file)") }
            let texts = mail.blocks.compactMap { block -> String? in
                if case .plainText(let text, .none) = block { return text }
                return nil
            }
            let wanted = vector.texts.map { $0.type == "text/html" ? HTMLText.render($0.text) : Self.shown($0.text) }
            #expect(texts == wanted, "\(vector.file)")
            let files = mail.blocks.compactMap { block -> MailAttachment? in
                if case .attachment(let file) = block { return file }
                return nil
            }
            #expect(files.map(\.name) == vector.attachments.map(\.name), "\(vector.file)")
            #expect(files.map(\.data.hex) == vector.attachments.map(\.hex), "\(vector.file)")
            #expect(files.map(\.mediaType) == vector.attachments.map(\.type), "\(vector.file)")
            #expect(!mail.blocks.contains { if case .error = $0 { true } else { false } }, "\(vector.file)")
        }
    }

    @Test func htmlVectorIsRenderedSafely() throws {
        let mail = try MailReader.read(eml: Self.eml("html-only.eml"), keys: [], passphrases: [], verifyWith: [])
        #expect(mail.blocks == [.plainText("Hi & welcome <friend>\nSee the page <https://example.org/x>.[logo]", signature: .none)])
    }

    @Test func invalidVectorsGiveTheirTypedError() throws {
        let vectors = try Self.expected()
        #expect(vectors.invalid.count == 7)
        for vector in vectors.invalid {
            let bytes = try Self.eml(vector.file)
            let outcome: String
            do {
                let mail = try MailReader.read(eml: bytes, keys: [], passphrases: [], verifyWith: [])
                switch mail.blocks.first {
                case .error(.badBase64): outcome = "badBase64"
                case .error(.badQuotedPrintable): outcome = "badQuotedPrintable"
                case .error(.unknownTransferEncoding): outcome = "unknownTransferEncoding"
                case .unsupportedCharset("koi8-r"): outcome = "unsupportedCharset"
                default: outcome = "read: \(mail.blocks)"
                }
            } catch MailError.malformed {
                outcome = "malformed"
            }
            #expect(outcome == vector.error, "\(vector.file)")
        }
    }
}
