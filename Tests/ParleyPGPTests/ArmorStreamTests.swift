import Foundation
import Testing
@testable import ParleyPGP

/// The streamed armor reader (`DearmorInput`) takes the line endings mail leaves behind — LF, CRLF,
/// bare CR, mixed, with trailing whitespace — exactly as the whole-buffer `Armor.decode` does, however
/// the input is cut into chunks, including a CR in one chunk and its LF in the next.
@Suite struct ArmorStreamTests {
    static let chunkSizes = [1, 2, 3, 7, 64 * 1024]

    /// A line ending per style; `mixed` cycles through all three, line by line.
    enum Endings: CaseIterable {
        case lf, crlf, cr, mixed, trailingWhitespace

        func apply(to armored: String) -> String {
            let lines = armored.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            return lines.enumerated().map { index, line in
                switch self {
                case .lf: line + "\n"
                case .crlf: line + "\r\n"
                case .cr: line + "\r"
                case .mixed: line + ["\r", "\r\n", "\n"][index % 3]
                case .trailingWhitespace: line + [" \r", "\t\r\n", "  \n", " \t \r"][index % 4]
                }
            }.joined()
        }
    }

    /// A signed, armored message (with an armor header) made by Parley; signing is fast, so every
    /// style and chunk size can run the whole streamed reader, hashes and signature check included.
    static func signedMessage(_ content: [UInt8]) throws -> (armored: String, signer: Certificate) {
        let key = try KeyGenerator.generate(userIDs: ["Arm Or <armor@example.org>"], passphrase: nil, now: Fixtures.now - 60)
        let signer = try key.unlockedSigningKey(passphrases: [], now: Fixtures.now)
        let signed = try Signer.inline(content, signers: [signer], text: false, now: Fixtures.now)
        return (Armor.encode(signed, as: .message, headers: [("Comment", "made by ArmorStreamTests")]), key.publicCertificate)
    }

    /// Everything `DearmorInput` yields from `bytes` delivered `size` bytes at a time.
    static func dearmor(_ bytes: [UInt8], chunkSize size: Int) throws -> [UInt8] {
        try DearmorInput(BufferedInput(ChunkedInput(bytes, chunkSize: size))).readAll(limit: 1 << 24)
    }

    @Test(arguments: Endings.allCases)
    func everyLineEndingStreamsLikeTheWholeBufferReader(endings: Endings) throws {
        let content = (0..<9000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ $0 >> 5) }
        let (armored, certificate) = try Self.signedMessage(content)
        let mangled = endings.apply(to: armored) + "-- \rsignature"
        // Text before the BEGIN line is for the armor reader to skip; a message must start with its armor.
        let inMail = "Hello,\r\nbefore the block\r" + mangled
        let whole = try Armor.decode(inMail).data
        var decryptor = Decryptor(now: Fixtures.now + 60)
        decryptor.strict = false   // a signed message with mail text after its armor
        decryptor.verifiers = [certificate]
        for size in Self.chunkSizes {
            #expect(try Self.dearmor(Array(inMail.utf8), chunkSize: size) == whole, "\(endings) in chunks of \(size)")
            let output = PGPMemoryOutput()
            let result = try decryptor.decrypt(from: ChunkedInput(Array(mangled.utf8), chunkSize: size), to: output)
            #expect(output.bytes == content, "\(endings) in chunks of \(size)")
            #expect(result.verifications.map(\.isGood) == [true])
        }
    }

    @Test(arguments: [Endings.crlf, .mixed, .trailingWhitespace])
    func aCRLFSplitAcrossTwoChunksIsOneLineEnding(endings: Endings) throws {
        // Long enough that the armor runs past one 64 KiB chunk.
        let content = (0..<120_000).map { UInt8(truncatingIfNeeded: $0 &* 11) }
        let (armored, certificate) = try Self.signedMessage(content)
        var bytes = Array(endings.apply(to: armored).utf8)
        // Leading spaces before the BEGIN line (tolerated) move the last CRLF inside the first chunk to
        // its final byte, so its LF arrives with the second chunk.
        let boundary = 64 * 1024
        let lastCRLF = try #require((0..<boundary).last { bytes[$0] == 0x0D && bytes[$0 + 1] == 0x0A })
        bytes = Array(repeating: 0x20, count: boundary - 1 - lastCRLF) + bytes
        #expect(bytes[boundary - 1] == 0x0D && bytes[boundary] == 0x0A)
        #expect(try Self.dearmor(bytes, chunkSize: boundary) == Armor.unwrap(Array(armored.utf8)))
        var decryptor = Decryptor(now: Fixtures.now + 60)
        decryptor.strict = false   // a signed message with mail text after its armor
        decryptor.verifiers = [certificate]
        let output = PGPMemoryOutput()
        let result = try decryptor.decrypt(from: ChunkedInput(bytes, chunkSize: boundary), to: output)
        #expect(output.bytes == content)
        #expect(result.verifications.map(\.isGood) == [true])
    }

    @Test func aSplitCRLFAfterTheBeginLineDoesNotEndTheHeadersEarly() throws {
        // "BEGIN…\r" | "\nComment: …": were CR and LF two endings, the blank line between them would end
        // the headers and the Comment line would be read as (invalid) base64.
        let armored = Endings.crlf.apply(to: Armor.encode(Array("headers stay headers".utf8), as: .message, headers: [("Comment", "x")]))
        let bytes = Array(armored.utf8)
        let cr = try #require(bytes.firstIndex(of: 0x0D))
        for size in [cr + 1] + Self.chunkSizes {
            #expect(try Self.dearmor(bytes, chunkSize: size) == Array("headers stay headers".utf8), "chunks of \(size)")
        }
    }

    @Test func aGnuPGMessageWithBareCRLineEndingsDecryptsStreamed() throws {
        var decryptor = Decryptor(now: Fixtures.now)
        decryptor.strict = false
        decryptor.keys = [try Fixtures.certificate("ed.sec.asc")]
        decryptor.keyPassphrases = [Fixtures.passphrase]
        decryptor.verifiers = [try Fixtures.certificate("ed.pub.asc")]
        let original = try Fixtures.bytes("ed.signed.msg.asc")
        let bareCR = Array(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r").utf8)
        let output = PGPMemoryOutput()
        let result = try decryptor.decrypt(from: ChunkedInput(bareCR, chunkSize: 7), to: output)
        #expect(try output.bytes == decryptor.decrypt(original).literal.data)
        #expect(result.verifications.map(\.isGood) == [true])
    }

    // MARK: - Garbage, truncation and oversize: typed errors, never a crash

    @Test func truncatedBareCRArmorIsAnError() throws {
        let (armored, _) = try Self.signedMessage(Array("cut short".utf8))
        let bytes = Array(Endings.cr.apply(to: armored).utf8)
        for cut in stride(from: 0, to: bytes.count, by: 5) {
            for size in [1, 7] {
                #expect(throws: PGPError.self) { try Self.dearmor(Array(bytes[..<cut]), chunkSize: size) }
            }
        }
    }

    @Test func aLineLongerThanTheLimitIsRefused() throws {
        // 70 000 base64 characters with no line ending of any kind.
        let long = "-----BEGIN PGP MESSAGE-----\r\r" + String(repeating: "QUFB", count: 17_500) + "\r-----END PGP MESSAGE-----\r"
        for size in [7, 64 * 1024] {
            #expect(throws: PGPError.badArmor("line too long")) { try Self.dearmor(Array(long.utf8), chunkSize: size) }
        }
    }

    @Test func garbageWithEveryLineEndingNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let noise = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in
                "ABC=\n\r \t-:PGP".randomElement(using: &generator)!
            }
            let bytes = Array(("-----BEGIN PGP MESSAGE-----\r" + String(noise) + "\r-----END PGP MESSAGE-----").utf8)
            let size = Self.chunkSizes.randomElement(using: &generator)!
            do {
                _ = try Self.dearmor(bytes, chunkSize: size)
            } catch {
                #expect(error is PGPError)
            }
        }
    }
}

/// Hands out at most `chunkSize` bytes per read, whatever is asked: input cut the way a pipe may cut it.
final class ChunkedInput: PGPInput {
    private let bytes: [UInt8]
    private let chunkSize: Int
    private var offset = 0

    init(_ bytes: [UInt8], chunkSize: Int) {
        self.bytes = bytes
        self.chunkSize = chunkSize
    }

    func read(upTo count: Int) throws -> [UInt8] {
        let end = min(bytes.count, offset + min(count, chunkSize))
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}
