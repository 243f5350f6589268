import Foundation
@testable import ParleyFiles
import Testing

/// The sealed scratch file holds decrypted output until its check passed (`parley pgp decrypt`, a received file
/// written to a pipe): what it puts on the disk is sealed, what it gives back is exactly what it was given, and a file
/// changed behind its back is refused.
@Suite(.serialized) struct SealedScratchTests {
    /// Bytes no cipher output would repeat by chance: a counter's digits, so the plaintext is easy to search for.
    static func plaintext(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var line = 0
        while bytes.count < count {
            bytes += Array("secret line \(line) of the decrypted message\n".utf8)
            line += 1
        }
        return Array(bytes.prefix(count))
    }

    /// A new scratch file and the path its descriptor can be opened by (as any program of the same user could,
    /// through /proc), which shows it is unlinked.
    static func spoolAndFile() throws -> (SealedScratch, String) {
        let spool = try SealedScratch()
        let path = "/proc/self/fd/\(spool.descriptor)"
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: path)
        #expect(link.contains("parley-spool-") && link.hasSuffix("(deleted)"), "\(link)")
        return (spool, path)
    }

    /// Releases `spool` into a temporary file and returns what arrived there.
    static func released(_ spool: SealedScratch) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-out-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try spool.release(to: handle.fileDescriptor)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test(arguments: [0, 1, ScratchCipher.chunkSize - 1, ScratchCipher.chunkSize, ScratchCipher.chunkSize + 1, 3 * ScratchCipher.chunkSize + 5])
    func givesBackExactlyWhatItWasGiven(size: Int) throws {
        let data = Self.plaintext(size)
        let spool = try SealedScratch()
        // In uneven pieces, as a decryptor writes.
        var offset = 0, piece = 1
        while offset < data.count {
            let end = min(data.count, offset + piece)
            try spool.write(Array(data[offset..<end]))
            offset = end
            piece = piece * 3 + 7
        }
        #expect(try Self.released(spool) == data)
    }

    @Test func theDiskHoldsNoPlaintext() throws {
        let data = Self.plaintext(200_000)
        let (spool, file) = try Self.spoolAndFile()
        try spool.write(data)
        let onDisk = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        // Every whole chunk is on the disk before release; none of it is readable there.
        #expect(onDisk.count == 3 * (ScratchCipher.chunkSize + ScratchCipher.tagLength))
        let needle = Array("of the decrypted message".utf8)
        #expect(!onDisk.indices.dropLast(needle.count).contains { Array(onDisk[$0..<($0 + needle.count)]) == needle })
        #expect(try Self.released(spool) == data)
    }

    @Test(arguments: [0, ScratchCipher.chunkSize + ScratchCipher.tagLength + 5])
    func aChangedByteIsRefused(at position: Int) throws {
        let (spool, path) = try Self.spoolAndFile()
        try spool.write(Self.plaintext(3 * ScratchCipher.chunkSize))
        let file = try #require(FileHandle(forUpdatingAtPath: path))
        try file.seek(toOffset: UInt64(position))
        let byte = try #require(try file.read(upToCount: 1)?.first)
        try file.seek(toOffset: UInt64(position))
        try file.write(contentsOf: [byte ^ 0x01])
        try file.close()
        #expect(throws: SealedScratch.Failure.self) { _ = try Self.released(spool) }
    }

    @Test func aSpoolCutAtAChunkBoundaryIsRefused() throws {
        let (spool, path) = try Self.spoolAndFile()
        try spool.write(Self.plaintext(2 * ScratchCipher.chunkSize + 10))
        try spool.finish()
        // Dropping the last chunk leaves whole chunks only: the missing last one gives it away.
        let descriptor = open(path, O_WRONLY)
        #expect(descriptor >= 0)
        #expect(ftruncate(descriptor, off_t(2 * (ScratchCipher.chunkSize + ScratchCipher.tagLength))) == 0)
        close(descriptor)
        #expect(throws: SealedScratch.Failure.self) { _ = try Self.released(spool) }
    }
}
