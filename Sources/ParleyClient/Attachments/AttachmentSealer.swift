import Crypto
import Foundation

/// Encrypts a file on disk into an attachment file beside the account's data, one 64 KiB chunk at a
/// time, hashing the ciphertext as it goes (the digest the server checks and the message carries).
struct AttachmentSealer {
    /// What sealing produced.
    struct Sealed {
        let path: URL
        let size: Int64
        let sha256: [UInt8]
    }

    /// Reads `source` (which must hold exactly `plaintextSize` bytes) and writes its encryption to `target`.
    static func seal(_ source: URL, plaintextSize: Int64, key: [UInt8], salt: [UInt8], to target: URL) throws(AttachmentError) -> Sealed {
        guard let input = try? FileHandle(forReadingFrom: source) else { throw .unreadable("cannot open \(source.lastPathComponent)") }
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: target.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let output = try? FileHandle(forWritingTo: target)
        else { throw .output("cannot create a temporary file in \(target.deletingLastPathComponent().path)") }
        defer { try? output.close() }
        let header = AttachmentFormat.header(salt: salt)
        let payloadKey = AttachmentFormat.payloadKey(key: key, salt: salt)
        let count = AttachmentFormat.chunkCount(plaintextSize: plaintextSize)
        var hasher = SHA256()
        func emit(_ bytes: [UInt8]) throws(AttachmentError) {
            hasher.update(data: bytes)
            do { try output.write(contentsOf: bytes) } catch { throw .output("writing the encrypted copy failed") }
        }
        try emit(header)
        for index in 0..<count {
            let expected = Int(min(Int64(AttachmentFormat.chunkSize), plaintextSize - index * Int64(AttachmentFormat.chunkSize)))
            let chunk: Data
            do { chunk = try input.read(upToCount: expected) ?? Data() } catch { throw .unreadable("reading \(source.lastPathComponent) failed") }
            // The file changed size while we read it: refuse rather than send something else than was checked.
            guard chunk.count == expected else { throw .unreadable("\(source.lastPathComponent) changed while it was being read") }
            try emit(AttachmentFormat.sealChunk(chunk, key: payloadKey, counter: index, last: index == count - 1, header: header))
        }
        let extra = try? input.read(upToCount: 1)
        guard extra?.isEmpty ?? true else { throw .unreadable("\(source.lastPathComponent) grew while it was being read") }
        return Sealed(path: target, size: AttachmentFormat.ciphertextSize(plaintextSize: plaintextSize), sha256: Array(hasher.finalize()))
    }
}
