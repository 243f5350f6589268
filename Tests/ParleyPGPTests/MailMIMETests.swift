import Foundation
import Testing
@testable import ParleyPGP

/// The MIME reader on hand-written messages: headers, encodings, charsets, nesting, and every limit.
struct MailMIMETests {
    static func read(_ text: String, limits: MailLimits = MailLimits()) throws -> Mail {
        try MailReader.read(eml: Array(text.utf8), keys: [], passphrases: [], verifyWith: [], limits: limits)
    }

    @Test func foldedHeadersAndEncodedWords() throws {
        let mail = try Self.read("""
            From: =?iso-8859-1?Q?Andr=E9?= <andre@example.org>\r
            Subject: =?utf-8?B?R3LDvMOfZQ==?=\r
             =?utf-8?Q?_aus_K=C3=B6ln?= and more\r
            To: a@example.org,\r
            \tb@example.org\r
            \r
            Body.\r

            """)
        #expect(mail.from == "André <andre@example.org>")
        #expect(mail.subject == "Grüße aus Köln and more")
        #expect(mail.to == "a@example.org,\tb@example.org")
        #expect(mail.blocks == [.plainText("Body.", signature: .none)])
    }

    @Test func encodedWordsThatAreNotDecoded() {
        // Unknown charset, bad base64, an unfinished word: left as written.
        #expect(EncodedWord.decode("=?koi8-r?B?8NLJ18XU?=") == "=?koi8-r?B?8NLJ18XU?=")
        #expect(EncodedWord.decode("a =?utf-8?B?***?= b") == "a =?utf-8?B?***?= b")
        #expect(EncodedWord.decode("x =?utf-8?Q?unfinished") == "x =?utf-8?Q?unfinished")
        #expect(EncodedWord.decode("=?utf-8?Q?a?= =?utf-8?Q?b?=") == "ab")
        #expect(EncodedWord.decode("=?utf-8?Q?a?= x =?utf-8?Q?b?=") == "a x b")
    }

    @Test func headerEncodingRoundTrips() {
        for subject in ["plain ascii", "Grüße ✓", String(repeating: "é", count: 100)] {
            #expect(EncodedWord.decode(EncodedWord.encode(subject).replacingOccurrences(of: "\r\n", with: "")) == subject)
        }
    }

    @Test func transferEncodings() throws {
        #expect(TransferEncoding.decodeBase64(Array("SGVs\r\nbG8=".utf8)) == Array("Hello".utf8))
        #expect(TransferEncoding.decodeBase64(Array("SGVsbG8".utf8)) == Array("Hello".utf8))  // padding left off
        #expect(TransferEncoding.decodeBase64(Array("SGVsbG8=x".utf8)) == nil)  // data after padding
        #expect(TransferEncoding.decodeBase64(Array("SGVsb".utf8)) == nil)  // impossible length
        #expect(TransferEncoding.decodeBase64(Array("SG=VsbG8".utf8)) == nil)
        #expect(try TransferEncoding.decode(Array("=".utf8)[...], encoding: "quoted-printable") == [])  // a soft break
        #expect(try TransferEncoding.decode(Array("a=3Db =\r\nc  \r\nd=C3=A9".utf8)[...], encoding: "quoted-printable") == Array("a=b c\r\ndé".utf8))
        for bad in ["=\u{0}", "=4", "=G0", "a=\u{e9}9", "x=\r\n=Z"] {
            #expect(throws: MailError.badQuotedPrintable) {
                try TransferEncoding.decode(Array(bad.utf8)[...], encoding: "quoted-printable")
            }
        }
        #expect(throws: MailError.unknownTransferEncoding("x-uue")) { try TransferEncoding.decode([], encoding: "x-uue") }
    }

    @Test func charsets() {
        #expect(Charset.decode([0x80, 0x93, 0x94, 0x81], charset: "Windows-1252") == "€“”\u{FFFD}")
        #expect(Charset.decode([0x80, 0xE9], charset: "ISO-8859-1") == "\u{80}é")
        #expect(Charset.decode([0x41, 0xE9], charset: "us-ascii") == "A\u{FFFD}")
        #expect(Charset.decode([0xC3, 0x28], charset: "utf-8") == "\u{FFFD}(")
        #expect(Charset.decode([0x41], charset: "shift_jis") == nil)
    }

    @Test func contentTypeParameters() {
        let value = HeaderValue("Multipart/Mixed; boundary=\"a;b\\\"c\"; name*0*=utf-8''r%C3%A9; name*1=\"sum.txt\"; charset=UTF-8")
        #expect(value.value == "multipart/mixed")
        #expect(value.parameters["boundary"] == "a;b\"c")
        #expect(value.parameters["name"] == "résum.txt")
        #expect(value.charset == "utf-8")
    }

    @Test func nestedMultipartWithPreambleAndEpilogue() throws {
        let mail = try Self.read("""
            Content-Type: multipart/mixed; boundary=outer

            preamble --outer not a delimiter
            --outer
            Content-Type: multipart/mixed; boundary="inner"

            --inner
            Content-Type: text/plain; charset=utf-8
            Content-Transfer-Encoding: base64

            w6lsw6h2ZQ==
            --inner
            Content-Type: text/plain; charset=koi8-r

            text
            --inner--
            inner epilogue
            --outer
            Content-Type: image/png
            Content-Disposition: attachment; filename="a.png"
            Content-Transfer-Encoding: base64

            iVBORw==
            --outer--
            epilogue --outer
            """)
        #expect(mail.blocks == [
            .plainText("élève", signature: .none),
            .unsupportedCharset("koi8-r"),
            .attachment(MailAttachment(name: "a.png", mediaType: "image/png", data: [0x89, 0x50, 0x4E, 0x47])),
        ])
    }

    @Test func signaturesThatAreNotOpenPGP() throws {
        func signed(_ protocolName: String) throws -> [MailBlock] {
            try Self.read("""
                Content-Type: multipart/signed; protocol="\(protocolName)"; micalg=sha-256; boundary=s

                --s
                Content-Type: text/plain

                hello
                --s
                Content-Type: \(protocolName)

                MIAGCSqGSIb3DQEHAqCAMIACAQ==
                --s--
                """).blocks
        }
        // S/MIME is not judged (neither valid nor bad); a PGP signature that is garbage is bad.
        #expect(try signed("application/pkcs7-signature") == [.plainText("hello", signature: .none)])
        guard case .plainText("hello", .bad) = try signed("application/pgp-signature").first else {
            Issue.record("an unreadable OpenPGP signature is a bad signature")
            return
        }
    }

    /// `depth` multiparts inside each other around one text part.
    static func nested(_ depth: Int) -> String {
        var text = "Content-Type: text/plain\n\ndeep\n"
        for level in 0..<depth {
            text = "Content-Type: multipart/mixed; boundary=b\(level)\n\n--b\(level)\n\(text)--b\(level)--\n"
        }
        return text
    }

    @Test func depthLimit() throws {
        // 20 multiparts: the text is at depth 20, the limit; one more is refused.
        #expect(try Self.read(Self.nested(20)).blocks == [.plainText("deep", signature: .none)])
        #expect(throws: MailError.tooDeep(limit: 20)) { try Self.read(Self.nested(21)) }
        // Endless nesting: a thousand levels is refused early, not by a stack overflow.
        #expect(throws: MailError.tooDeep(limit: 20)) { try Self.read(Self.nested(1000)) }
    }

    @Test func partCountLimit() throws {
        func parts(_ count: Int) -> String {
            "Content-Type: multipart/mixed; boundary=b\n\n" + String(repeating: "--b\n\nx\n", count: count) + "--b--\n"
        }
        #expect(try Self.read(parts(999)).blocks.count == 999)
        #expect(throws: MailError.tooManyParts(limit: 1000)) { try Self.read(parts(1000)) }
        var small = MailLimits()
        small.maxParts = 3
        #expect(throws: MailError.tooManyParts(limit: 3)) { try Self.read(parts(3), limits: small) }
    }

    @Test func headerAndSizeLimits() throws {
        let long = String(repeating: "a", count: 64 * 1024 + 1)
        #expect(throws: MailError.headerTooLong(limit: 65536)) { try Self.read("Subject: \(long)\n\nx") }
        // Folding does not get around it: the limit applies to the unfolded field.
        let folded = (0..<70).map { _ in String(repeating: "b", count: 1000) }.joined(separator: "\n ")
        #expect(throws: MailError.headerTooLong(limit: 65536)) { try Self.read("Subject: \(folded)\n\nx") }
        #expect(try Self.read("Subject: \(String(repeating: "c", count: 60000))\n\nx").subject?.count == 60000)
        var small = MailLimits()
        small.maxBytes = 100
        #expect(throws: MailError.tooLarge(limit: 100)) { try Self.read("Subject: s\n\n" + String(repeating: "x", count: 100), limits: small) }
    }

    @Test func structuralErrors() {
        #expect(throws: MailError.malformed("a header line is not a field")) { try Self.read("no colon here\n\nbody") }
        #expect(throws: MailError.malformed("a header continuation line without a field")) { try Self.read(" folded first\n\nbody") }
        #expect(throws: MailError.malformed("a multipart without a usable boundary")) {
            try Self.read("Content-Type: multipart/mixed\n\n--x\n\nbody\n--x--\n")
        }
    }

    /// Random bytes, random mutations of a real message, and the message cut at every byte around its
    /// part boundaries: always a result or a typed `MailError`, never a crash or another error.
    @Test func hostileInput() throws {
        var random = SystemRandomNumberGenerator()
        let message = Array(Self.nested(3).utf8) + Array(try MailVectorTests.eml("nested-mixed.eml"))
        let samples: [[UInt8]] = (0..<300).map { _ in (0..<Int.random(in: 0...400, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) } }
            + (0..<300).map { _ in
                var copy = message
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    copy[Int.random(in: 0..<copy.count, using: &random)] = [0x2D, 0x0A, 0x3D, 0x3B, 0x22, UInt8.random(in: 0...255, using: &random)].randomElement(using: &random)!
                }
                return copy
            }
        let eml = try MailVectorTests.eml("nested-mixed.eml")
        let text = String(decoding: eml, as: UTF8.self)
        var cuts: [[UInt8]] = []
        var search = text.startIndex
        while let found = text[search...].range(of: "--===") {
            let offset = text.utf8.distance(from: text.startIndex, to: found.lowerBound)
            for delta in -3...40 where offset + delta >= 0 && offset + delta <= eml.count {
                cuts.append(Array(eml.prefix(offset + delta)))
            }
            search = found.upperBound
        }
        #expect(cuts.count > 100)
        for sample in samples + cuts {
            do {
                _ = try MailReader.read(eml: sample, keys: [], passphrases: [], verifyWith: [])
            } catch is MailError {
                // typed: fine
            }
        }
    }
}
