import Crypto
import ParleyFiles

extension FuzzTarget {
    static let filesTargets: [FuzzTarget] = [
        FuzzTarget("file-header", "v1 headers and stanzas decode or fail cleanly and re-encode to the bytes they were read from; no file opens under the fixture P-256 and X25519 keys", prepare: { _ = fileIdentities }, run: fileHeader),
        FuzzTarget("filelock", "FileLock packages fail cleanly; none opens under the fixture key", prepare: { _ = Fixtures.p256 }, run: fileLock),
    ]
}

private let fileIdentities: [FileIdentity] = [.p256(Fixtures.p256), .x25519(Fixtures.x25519)]

private func fileHeader(_ bytes: [UInt8]) {
    _ = FileFormat.detect(Array(bytes.prefix(FileFormat.prefixLength)))
    var consumed = 0
    let header = try? FileHeader.decode { count in
        guard count <= bytes.count - consumed else { throw FileError.malformed("the header is truncated") }
        defer { consumed += count }
        return Array(bytes[consumed..<(consumed + count)])
    }
    if let header {
        require(header.encoded == Array(bytes[0..<consumed]), "a header decodes but re-encodes to other bytes")
    }
    let output = MemoryOutput()
    require((try? FileOpener.open(from: MemoryInput(bytes), to: output, identities: fileIdentities)) == nil,
            "a file opened under keys the fuzzer does not know")
}

private func fileLock(_ bytes: [UInt8]) {
    if let length = try? FileLockPackage.plaintextLength(of: bytes) {
        require(length >= 0 && length < bytes.count, "a package claims more plaintext than it has bytes")
    }
    require((try? FileLockPackage.open(bytes, using: Fixtures.p256)) == nil, "a FileLock package opened under a key the fuzzer does not know")
}
