import Crypto
import Foundation
@testable import ParleyCrypto
@testable import ParleyFiles
import Testing

@Suite("Parley file v1 streaming")
struct FileV1StreamingTests {
    static let chunk = FileFormatV1.chunkSize
    static let sealedChunk = FileFormatV1.sealedChunkSize
    let key = Curve25519.KeyAgreement.PrivateKey()

    func seal(_ plaintext: [UInt8], to recipients: [FileRecipient]) throws -> [UInt8] {
        let output = MemoryOutput()
        try FileSealer.seal(from: MemoryInput(plaintext), to: output, recipients: recipients)
        return output.bytes
    }

    @Test("round trip at sizes around every chunk edge", arguments: [0, 1, 65_535, 65_536, 65_537, 131_072, 200_000])
    func roundTrip(size: Int) throws {
        let plaintext = DeterministicRandomSource(seed: [UInt8(size & 0xFF)]).bytes(size)
        let sealed = try seal(plaintext, to: [.x25519(key.publicKey)])
        #expect(try openEncrypted(sealed, with: [.x25519(key)]) == plaintext)
        let header = try FileOpener.readHeader(from: MemoryInput(sealed))
        let payload = UInt64(sealed.count - header.encoded.count)
        #expect(try PayloadLayout.measure(payloadBytes: payload).plaintextBytes == UInt64(size))
    }

    /// A five-chunk file and the offset of its first chunk.
    func fiveChunkFile() throws -> (bytes: [UInt8], payloadStart: Int, plaintext: [UInt8]) {
        let plaintext = DeterministicRandomSource(seed: Array("five".utf8)).bytes(4 * Self.chunk + 1000)
        let sealed = try seal(plaintext, to: [.x25519(key.publicKey)])
        let start = try FileOpener.readHeader(from: MemoryInput(sealed)).encoded.count
        return (sealed, start, plaintext)
    }

    @Test("truncation at every chunk boundary fails")
    func truncationAtBoundaries() throws {
        let (bytes, start, _) = try fiveChunkFile()
        for chunks in 0..<5 {
            #expect(throws: FileError.self, "cut after \(chunks) chunks") {
                try openEncrypted(Array(bytes.prefix(start + chunks * Self.sealedChunk)), with: [.x25519(key)])
            }
        }
    }

    @Test("swapped, dropped and duplicated chunks fail")
    func reordering() throws {
        let (bytes, start, _) = try fiveChunkFile()
        func chunk(_ i: Int) -> ArraySlice<UInt8> { bytes[(start + i * Self.sealedChunk)..<min(bytes.count, start + (i + 1) * Self.sealedChunk)] }
        let head = Array(bytes.prefix(start))
        let variants: [(String, [UInt8])] = [
            ("swap 1 and 2", head + chunk(0) + chunk(2) + chunk(1) + chunk(3) + chunk(4)),
            ("drop 2", head + chunk(0) + chunk(1) + chunk(3) + chunk(4)),
            ("duplicate 1", head + chunk(0) + chunk(1) + chunk(1) + chunk(2) + chunk(3) + chunk(4)),
            ("last chunk moved first", head + chunk(4) + chunk(0) + chunk(1) + chunk(2) + chunk(3)),
        ]
        for (name, mutated) in variants {
            #expect(throws: FileError.cannotDecrypt, "\(name)") { try openEncrypted(mutated, with: [.x25519(key)]) }
        }
    }

    @Test("appending a chunk sealed by someone else, or any bytes, fails")
    func extension_() throws {
        let (bytes, _, _) = try fiveChunkFile()
        for extra in [[UInt8](repeating: 0, count: 1), [UInt8](repeating: 7, count: 16), [UInt8](repeating: 1, count: Self.sealedChunk)] {
            #expect(throws: FileError.self) { try openEncrypted(bytes + extra, with: [.x25519(key)]) }
        }
    }

    @Test("output stops at the first chunk that fails, and what came before was authentic")
    func failsWithoutWrongOutput() throws {
        var (bytes, start, plaintext) = try fiveChunkFile()
        bytes[start + 3 * Self.sealedChunk + 5] ^= 0x80
        let output = MemoryOutput()
        #expect(throws: FileError.cannotDecrypt) {
            try FileOpener.open(from: MemoryInput(bytes), to: output, identities: [.x25519(key)])
        }
        #expect(output.bytes == Array(plaintext.prefix(3 * Self.chunk)))
    }

    @Test("every recipient of a multi-recipient file can open it; others cannot")
    func multipleRecipients() throws {
        let p256 = P256.KeyAgreement.PrivateKey()
        let other = Curve25519.KeyAgreement.PrivateKey()
        let plaintext = Array("shared with three".utf8)
        let sealed = try seal(plaintext, to: [.p256(p256.publicKey), .x25519(key.publicKey), .x25519(other.publicKey), .passphrase("pw", logN: 14, lanes: 1)])
        #expect(try openEncrypted(sealed, with: [.p256(p256)]) == plaintext)
        #expect(try openEncrypted(sealed, with: [.x25519(key)]) == plaintext)
        #expect(try openEncrypted(sealed, with: [.x25519(other)]) == plaintext)
        #expect(try openEncrypted(sealed, with: [.passphrase("pw")]) == plaintext)
        #expect(throws: FileError.cannotDecrypt) { try openEncrypted(sealed, with: [.x25519(Curve25519.KeyAgreement.PrivateKey())]) }
        #expect(throws: FileError.cannotDecrypt) { try openEncrypted(sealed, with: [.passphrase("PW")]) }
    }

    @Test("X-Wing files round trip, and mixing post-quantum with classic keys is refused with the reason")
    func postQuantum() throws {
        let xwing = try XWingMLKEM768X25519.PrivateKey.generate()
        let plaintext = Array("post-quantum".utf8)
        let sealed = try seal(plaintext, to: [.xwing(xwing.publicKey), .passphrase("pw", logN: 14, lanes: 1)])
        #expect(try openEncrypted(sealed, with: [.xwing(xwing)]) == plaintext)
        let error = #expect(throws: FileError.self) { try seal(plaintext, to: [.xwing(xwing.publicKey), .x25519(key.publicKey)]) }
        #expect(error?.description.contains("cannot be mixed") == true)
        #expect(error?.description.contains("post-quantum protection would be lost") == true)
    }

    @Test("recipient sets out of range are refused before any work")
    func recipientRules() throws {
        #expect(throws: FileError.self) { try seal([], to: []) }
        #expect(throws: FileError.self) { try seal([], to: Array(repeating: .x25519(key.publicKey), count: 65)) }
        #expect(throws: FileError.self) { try seal([], to: [.passphrase("a", logN: 14, lanes: 1), .passphrase("b", logN: 14, lanes: 1)]) }
        #expect(throws: FileError.self) { try seal([], to: [.passphrase("weak", logN: 10, lanes: 1)]) }
        #expect(throws: FileError.self) { try seal([], to: [.passphrase("", logN: 14, lanes: 1)]) }
    }

    @Test("a passphrase with several lanes writes kind 05, one lane kind 04, and the same passphrase opens both")
    func passphraseLanes() throws {
        let plaintext = Array("lanes".utf8)
        let laned = try seal(plaintext, to: [.x25519(key.publicKey), .passphrase("pw", logN: 14, lanes: 3)])
        let header = try FileOpener.readHeader(from: MemoryInput(laned))
        #expect(header.stanzas.map(\.kind) == [.x25519, .passphraseLanes])
        #expect(header.stanzas[1].body[16...17] == [14, 3])
        #expect(try openEncrypted(laned, with: [.passphrase("pw")]) == plaintext)
        #expect(try openEncrypted(laned, with: [.x25519(key)]) == plaintext)
        #expect(throws: FileError.cannotDecrypt) { try openEncrypted(laned, with: [.passphrase("pw ")]) }
        let single = try seal(plaintext, to: [.passphrase("pw", logN: 14, lanes: 1)])
        #expect(try FileOpener.readHeader(from: MemoryInput(single)).stanzas.map(\.kind) == [.passphrase])
        #expect(try openEncrypted(single, with: [.passphrase("pw")]) == plaintext)
    }

    @Test("scrypt parameters a file may not ask for are refused when sealing, each with its reason")
    func scryptSealLimits() throws {
        let cases: [(UInt8, UInt8, String)] = [
            (13, 8, "outside 2^14…2^20"), (21, 1, "outside 2^14…2^20"), (15, 0, "lanes 0 is outside 1…64"),
            (15, 65, "lanes 65 is outside 1…64"), (18, 9, "over the limit of 2^21"),
        ]
        for (logN, lanes, reason) in cases {
            let error = #expect(throws: FileError.self) { try seal([], to: [.passphrase("pw", logN: logN, lanes: lanes)]) }
            #expect(error?.description.contains(reason) == true, "2^\(logN) × \(lanes): \(String(describing: error))")
        }
        // The defaults: 2^14 in 16 lanes, as much work as 2^18 in one, within the limit.
        #expect(FileRecipient.scryptParametersProblem(
            logN: FileRecipient.defaultLogN, lanes: FileRecipient.defaultLanes, logNRange: FileRecipient.sealLogNRange) == nil)
        #expect((1 << Int(FileRecipient.defaultLogN)) * Int(FileRecipient.defaultLanes) == 1 << 18)
    }

    @Test("a key of a kind the file lacks says what the file holds")
    func noMatchingKind() throws {
        let sealed = try seal([1, 2, 3], to: [.x25519(key.publicKey)])
        let error = #expect(throws: FileError.self) { try openEncrypted(sealed, with: [.passphrase("pw")]) }
        #expect(error?.description == "this file is not sealed to a passphrase; its recipients are: X25519 key")
    }

    @Test("streams read in bounded pieces: the sealer and opener never ask for more than a chunk and lookahead")
    func boundedReads() throws {
        final class CountingInput: ByteInput {
            let inner: ByteInput
            var largest = 0
            init(_ inner: ByteInput) { self.inner = inner }
            func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
                largest = max(largest, buffer.count)
                return try inner.read(into: buffer)
            }
        }
        let plaintext = [UInt8](repeating: 0x5A, count: 20 * Self.chunk + 3)
        let input = CountingInput(MemoryInput(plaintext))
        let sealed = MemoryOutput()
        try FileSealer.seal(from: input, to: sealed, recipients: [.x25519(key.publicKey)])
        #expect(input.largest <= Self.chunk + 1)
        let encrypted = CountingInput(MemoryInput(sealed.bytes))
        let opened = MemoryOutput()
        try FileOpener.open(from: encrypted, to: opened, identities: [.x25519(key)])
        #expect(encrypted.largest <= Self.sealedChunk + FileFormatV1.tagLength)
        #expect(opened.bytes == plaintext)
    }

    @Test("file descriptors: a pipe in, a file out")
    func fileDescriptors() throws {
        let plaintext = DeterministicRandomSource(seed: [9]).bytes(3 * Self.chunk + 17)
        let sealed = try seal(plaintext, to: [.x25519(key.publicKey)])
        let pipe = Pipe()
        let writer = Thread { try? pipe.fileHandleForWriting.write(contentsOf: Data(sealed)); try? pipe.fileHandleForWriting.close() }
        writer.start()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parley-fd-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        #expect(descriptor >= 0)
        try FileOpener.open(
            from: FileDescriptorInput(descriptor: pipe.fileHandleForReading.fileDescriptor),
            to: FileDescriptorOutput(descriptor: descriptor), identities: [.x25519(key)])
        close(descriptor)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(plaintext))
        try FileManager.default.removeItem(atPath: path)
    }
}
