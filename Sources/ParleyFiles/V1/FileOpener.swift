#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads Parley v1 files from a stream, in constant memory: one reused 64 KiB buffer.
public enum FileOpener {
    /// Reads the header (magic included) from `input`.
    public static func readHeader(from input: ByteInput) throws -> FileHeader {
        try FileHeader.decode { count in
            try input.readExactly(count, truncated: FileError.malformed("the header is truncated"))
        }
    }

    /// Opens a v1 file with the first identity that fits; returns the number of plaintext bytes.
    ///
    /// Plaintext is written chunk by chunk as each authenticates; a caller that must not expose a
    /// partial result writes to a temporary file and keeps it only when this returns.
    @discardableResult
    public static func open(
        from input: ByteInput, to output: ByteOutput, identities: [FileIdentity],
        progress: ((UInt64) -> Void)? = nil
    ) throws -> UInt64 {
        let header = try readHeader(from: input)
        let fileKey = try header.fileKey(for: identities)
        let cipher = PayloadCipher(fileKey: fileKey, payloadNonce: header.payloadNonce)
        return try openPayload(from: input, to: output, cipher: cipher, progress: progress)
    }

    /// Opens chunk after chunk, deciding which is last from where the input ends.
    static func openPayload(
        from input: ByteInput, to output: ByteOutput, cipher: PayloadCipher, progress: ((UInt64) -> Void)?
    ) throws -> UInt64 {
        let sealedSize = FileFormatV1.sealedChunkSize
        let tag = FileFormatV1.tagLength
        // A tag's worth of lookahead past a full chunk: if the input ends within it, the file has
        // stray bytes (malformed); if it ends exactly at the chunk, that chunk is the last.
        var buffer = [UInt8](repeating: 0, count: sealedSize + tag)
        // Each chunk's plaintext is made here, in the same memory every time.
        var opened = [UInt8](repeating: 0, count: sealedSize)
        var pending = 0
        var counter: UInt64 = 0
        var total: UInt64 = 0
        try opened.withUnsafeMutableBytes { scratch in try buffer.withUnsafeMutableBytes { raw in
            while true {
                pending += try input.readFully(into: UnsafeMutableRawBufferPointer(rebasing: raw[pending...]))
                if pending == raw.count {
                    let plaintext = try cipher.open(
                        UnsafeRawBufferPointer(rebasing: raw[0..<sealedSize]), counter: counter, last: false, scratch: scratch)
                    try output.write(plaintext)
                    total += UInt64(plaintext.count)
                    progress?(total)
                    raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[sealedSize...]))
                    pending = tag
                    guard counter < UInt64.max - 1 else { throw FileError.malformed("too many chunks") }
                    counter += 1
                    continue
                }
                if pending > sealedSize {
                    throw FileError.malformed("\(pending - sealedSize) stray bytes after the last chunk")
                }
                guard pending >= tag else { throw FileError.malformed("the payload is missing or truncated") }
                guard pending > tag || counter == 0 else {
                    throw FileError.malformed("an empty last chunk follows a full one")
                }
                let plaintext = try cipher.open(
                    UnsafeRawBufferPointer(rebasing: raw[0..<pending]), counter: counter, last: true, scratch: scratch)
                try output.write(plaintext)
                total += UInt64(plaintext.count)
                progress?(total)
                return
            }
        } }
        return total
    }
}
