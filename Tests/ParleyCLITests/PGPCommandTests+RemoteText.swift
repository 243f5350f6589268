import Foundation
import Testing

/// `parley pgp read-mail` shows what a mail's sender wrote without letting it act on the terminal (issue 21, item 8).
extension PGPCommandTests {
    @Test func readMailShowsControlsInSubjectAndBodyInsteadOfObeyingThem() async throws {
        try write("hostile.eml", Data("""
            From: Mallory <mallory@example.org>\r
            Subject: invoice\u{1B}]0;bank\u{07}\u{1B}[2J\r
            Content-Type: text/plain; charset=utf-8\r
            \r
            Pay here:\rPay to Mallory \u{202E}fdp.exe\u{1B}[8m hidden\r

            """.utf8))
        let opened = try await pgp(["read-mail", path("hostile.eml")])
        let text = String(decoding: opened.stdout, as: UTF8.self)
        #expect(opened.status == 0, "\(opened.stderr)")
        for byte: UInt8 in [0x1B, 0x07] { #expect(!opened.stdout.contains(byte), "\(text.debugDescription)") }
        #expect(!text.contains("\u{202E}") && !text.contains("\r"), "\(text.debugDescription)")
        #expect(text.contains("Subject: invoice␛]0;bank␇␛[2J"), "\(text)")
        #expect(text.contains("Pay to Mallory <U+202E>fdp.exe␛[8m hidden"), "\(text)")
    }
}
