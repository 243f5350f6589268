import Foundation
import ParleyTestSupport
import Testing
@testable import ParleyPGP

/// Cleartext signing and reading as streams: every chunk edge (a CRLF cut in two, a character cut in
/// two, trailing whitespace across chunks, lines longer than what the reader holds) gives what RFC 4880
/// §7 asks, checked against a model written plainly over whole strings.
@Suite struct CleartextStreamTests {
    static let texts: [String] = [
        "", "\n", "\n\n", "one line", "one line\n", "a\r\nb\rc\nd", "ends with CR\r", "a\n\n\nb\n\n",
        "- dash\n-dash\n--\n-", "trailing \t \nspaces   \n\t\n  lead", "ünïcödé ✓ 𝄞\n€\r\n",
        "From the start\n-----BEGIN PGP SIGNATURE-----\n", String(repeating: "x", count: 300) + "   \n" + String(repeating: "- y ", count: 100),
    ]
    static let chunkSizes = [1, 2, 3, 7, 1 << 16]

    /// The model: lines split on CRLF, CR or LF; a final line ending adds no empty line; the signed
    /// form joins the lines, trailing spaces and tabs removed, with CRLF; the message shows each line
    /// dash-escaped and ended by LF.
    static func model(_ text: String) -> (shown: String, canonical: [UInt8], read: String) {
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.count > 1, lines.last == "" { lines.removeLast() }
        let trimmed = lines.map { line -> String in
            var line = Substring(line)
            while let last = line.last, last == " " || last == "\t" { line = line.dropLast() }
            return String(line)
        }
        let shown = lines.map { ($0.hasPrefix("-") ? "- " : "") + $0 + "\n" }.joined()
        return (shown, Array(trimmed.joined(separator: "\r\n").utf8), lines.map { $0 + "\n" }.joined())
    }

    static func signer() throws -> (key: UnlockedKey, certificate: Certificate) {
        let secret = try KeyGenerator.generate(userIDs: ["Clear <clear@example.org>"], passphrase: nil, now: Fixtures.now - 60)
        return (try secret.unlockedSigningKey(passphrases: [], now: Fixtures.now), secret.publicCertificate)
    }

    @Test("signing and reading streamed in any chunks match the model; the signature verifies")
    func streamsMatchTheModel() throws {
        let (key, certificate) = try Self.signer()
        let other = try KeyGenerator.generate(userIDs: ["Other <other@example.org>"], passphrase: nil, now: Fixtures.now - 60)
        for text in Self.texts {
            let model = Self.model(text)
            for size in Self.chunkSizes {
                let output = PGPMemoryOutput()
                try CleartextSignature.sign(from: ChunkedInput(Array(text.utf8), chunkSize: size), to: output, signers: [key], now: Fixtures.now)
                let message = String(decoding: output.bytes, as: UTF8.self)
                #expect(message.hasPrefix("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n" + model.shown + "-----BEGIN PGP SIGNATURE-----\n"),
                        "\(text.debugDescription) in chunks of \(size)")

                for readSize in Self.chunkSizes {
                    let shown = PGPMemoryOutput()
                    var canonical: [UInt8] = []
                    _ = try CleartextReader.read(from: ChunkedInput(output.bytes, chunkSize: readSize), to: shown) { canonical += $0 }
                    #expect(canonical == model.canonical, "\(text.debugDescription): canonical form read in chunks of \(readSize)")
                    #expect(shown.bytes == Array(model.read.utf8), "\(text.debugDescription): text read in chunks of \(readSize)")
                }
                let verifications = try CleartextSignature.verify(from: ChunkedInput(output.bytes, chunkSize: 3), to: PGPMemoryOutput(),
                                                                   certificates: [other.publicCertificate, certificate], now: Fixtures.now + 1)
                #expect(verifications.map(\.isGood) == [true], "\(text.debugDescription)")
            }
        }
    }

    @Test("a character cut by a chunk edge is fine; bytes that are not UTF-8 are refused, at the end too")
    func utf8IsCheckedAcrossChunks() throws {
        let key = try Self.signer().key
        func sign(_ bytes: [UInt8], chunk: Int) throws {
            try CleartextSignature.sign(from: ChunkedInput(bytes, chunkSize: chunk), to: PGPMemoryOutput(), signers: [key], now: Fixtures.now)
        }
        let valid = Array("a𝄞b€c".utf8)
        for chunk in 1...5 { try sign(valid, chunk: chunk) }
        for bad: [UInt8] in [[0xFF], [0x61, 0xC3], [0xE2, 0x82], [0xF0, 0x9D, 0x84], [0xC3, 0x28], [0x80, 0x61], [0xED, 0xA0, 0x80],
                             Array("fine\n".utf8) + [0xC0, 0xAF]] {
            for chunk in [1, 2, 64] {
                #expect(throws: CleartextSignature.NotText.self, "\(bad) in chunks of \(chunk)") { try sign(bad, chunk: chunk) }
            }
        }
        var message = Array(try CleartextSignature.sign("text\n", signers: [key], now: Fixtures.now).utf8)
        message.insert(0xFF, at: message.firstIndex(of: 0x74)!)
        #expect(throws: PGPError.malformed("cleartext-signed message is not UTF-8 text")) {
            try CleartextReader.read(from: ChunkedInput(message, chunkSize: 5), to: PGPMemoryOutput()) { _ in }
        }
    }

    @Test("hostile cleartext messages: missing parts, a huge signature block, armor lines padded or escaped")
    func hostileMessagesAreTypedErrors() throws {
        let key = try Self.signer().key
        func read(_ text: String, chunk: Int = 4) throws -> (String, Int) {
            let shown = PGPMemoryOutput()
            let signatures = try CleartextReader.read(from: ChunkedInput(Array(text.utf8), chunkSize: chunk), to: shown) { _ in }
            return (String(decoding: shown.bytes, as: UTF8.self), signatures.count)
        }
        #expect(throws: PGPError.badArmor("no BEGIN PGP SIGNED MESSAGE line")) { try read("") }
        #expect(throws: PGPError.badArmor("no BEGIN PGP SIGNED MESSAGE line")) { try read(String(repeating: "z", count: 500)) }
        #expect(throws: PGPError.badArmor("no BEGIN PGP SIGNATURE line after the signed text")) {
            try read("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n")
        }
        #expect(throws: PGPError.badArmor("no BEGIN PGP SIGNATURE line after the signed text")) {
            try read("-----BEGIN PGP SIGNED MESSAGE-----\n\n- -----BEGIN PGP SIGNATURE-----\n")
        }
        #expect(throws: PGPError.self) {
            try read("-----BEGIN PGP SIGNED MESSAGE-----\n\nx\n-----BEGIN PGP SIGNATURE-----\n\n-----END PGP SIGNATURE-----\n")
        }
        let flood = "-----BEGIN PGP SIGNED MESSAGE-----\n\nx\n-----BEGIN PGP SIGNATURE-----\n" + String(repeating: "QUFB\n", count: 300_000)
        #expect(throws: PGPError.malformed("signature block larger than 1 MiB")) { try read(flood, chunk: 4096) }

        // Gpg and others pad armor lines with spaces; the escaped marker inside the text stays text.
        let signed = try CleartextSignature.sign("-----BEGIN PGP SIGNATURE-----\nbody", signers: [key], now: Fixtures.now)
        let padded = signed.replacingOccurrences(of: "-----BEGIN PGP SIGNED MESSAGE-----\n", with: "  -----BEGIN PGP SIGNED MESSAGE-----\t\n")
            .replacingOccurrences(of: "\n-----BEGIN PGP SIGNATURE-----\n", with: "\n-----BEGIN PGP SIGNATURE-----  \n")
        let (text, count) = try read("preamble line\n" + padded)
        #expect(text == "-----BEGIN PGP SIGNATURE-----\nbody\n")
        #expect(count == 1)
        // No final line ending after the armor is fine too.
        #expect(try read(String(signed.dropLast())).1 == 1)
    }
}
