#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// Writes Parley v1 files from a stream, in constant memory: one reused 64 KiB buffer.
public enum FileSealer {
    /// Seals everything `input` yields to `recipients`; returns the number of plaintext bytes.
    ///
    /// `progress` is called after each chunk with the plaintext bytes sealed so far.
    @discardableResult
    public static func seal(
        from input: ByteInput, to output: ByteOutput, recipients: [FileRecipient],
        random: some RandomSource = SystemRandomSource(), progress: ((UInt64) -> Void)? = nil
    ) throws -> UInt64 {
        // Check the set before any scrypt or KEM work, so a refused set costs nothing.
        try FileHeader.validate(kinds: recipients.map(\.kind), error: FileError.invalidRecipients)
        for case .passphrase(_, let logN, let lanes) in recipients {
            if let problem = FileRecipient.scryptParametersProblem(
                logN: logN, lanes: lanes, logNRange: FileRecipient.sealLogNRange)
            {
                throw FileError.invalidRecipients(problem)
            }
        }
        let fileKey = random.bytes(FileFormatV1.fileKeyLength)
        let stanzas = try recipients.map { try Stanza.wrap(fileKey: fileKey, for: $0, random: random) }
        let header = try FileHeader.make(
            stanzas: stanzas, fileKey: fileKey, payloadNonce: random.bytes(FileFormatV1.payloadNonceLength))
        return try seal(from: input, to: output, header: header, fileKey: fileKey, progress: progress)
    }

    /// Writes `header`, then the payload sealed under `fileKey`: for known-answer tests and `seal`.
    static func seal(
        from input: ByteInput, to output: ByteOutput, header: FileHeader, fileKey: [UInt8],
        progress: ((UInt64) -> Void)? = nil
    ) throws -> UInt64 {
        try output.write(header.encoded)
        let cipher = PayloadCipher(fileKey: fileKey, payloadNonce: header.payloadNonce)
        let chunkSize = FileFormatV1.chunkSize
        // One byte of lookahead past a full chunk tells whether that chunk is the last.
        var buffer = [UInt8](repeating: 0, count: chunkSize + 1)
        // Each sealed chunk is made here, in the same memory every time.
        var sealed = [UInt8](repeating: 0, count: chunkSize + FileFormatV1.tagLength)
        var pending = 0
        var counter: UInt64 = 0
        var total: UInt64 = 0
        try sealed.withUnsafeMutableBytes { scratch in try buffer.withUnsafeMutableBytes { raw in
            while true {
                pending += try input.readFully(into: UnsafeMutableRawBufferPointer(rebasing: raw[pending...]))
                let last = pending <= chunkSize
                let length = last ? pending : chunkSize
                try cipher.seal(
                    UnsafeRawBufferPointer(rebasing: raw[0..<length]), counter: counter, last: last, scratch: scratch,
                    to: output)
                total += UInt64(length)
                progress?(total)
                if last { return }
                raw[0] = raw[chunkSize]
                pending = 1
                counter += 1
            }
        } }
        return total
    }
}
