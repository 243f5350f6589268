import Foundation
@testable import ParleyPGP
import Testing

/// The PGP commands' spool is a `SealedScratch` (tested in ParleyFilesTests) written as a `PGPOutput`; its failures
/// are said as file failures.
@Suite struct PrivateSpoolTests {
    @Test func whatIsWrittenInPiecesIsReleasedWhole() throws {
        let data = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let released = try Self.releasing { output in
            try output.write(Array(data[..<70_000]))
            try data[70_000...].withUnsafeBytes { try output.write($0) }
        }
        #expect(released == data)
    }

    @Test func aFailedCopyIsAFileFailure() throws {
        let spool = try PrivateSpool()
        try spool.output.write([1, 2, 3])
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()  // nobody reads: the copy fails with EPIPE
        signal(SIGPIPE, SIG_IGN)
        #expect(throws: PGPFiles.Failure.self) { try spool.release(to: pipe.fileHandleForWriting.fileDescriptor) }
    }

    static func releasing(_ body: (PGPOutput) throws -> Void) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-out-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try PrivateSpool.releasing(to: handle.fileDescriptor, body)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
