import ParleyCrypto

/// What an encrypted file is, read without any key: its format, its recipients and the plaintext's size, as
/// `parley file inspect` prints them.
public enum FileDescription {
    /// The lines describing the encrypted data in `input`, which starts with `prefix` (already read to detect
    /// the format); `size` is the whole input's size when known (else the rest is counted).
    public static func lines(format: FileFormat, prefix: [UInt8], rest input: ByteInput, size: UInt64?) throws -> [String] {
        let stream = MemoryInput(prefix, then: input)
        switch format {
        case .parleyV1:
            let header = try FileOpener.readHeader(from: stream)
            let payload = try size.map { $0 - UInt64(header.encoded.count) } ?? stream.countRemaining()
            let layout = try PayloadLayout.measure(payloadBytes: payload)
            var lines = ["format: Parley file v1", "recipients: \(header.stanzas.count)"]
            for (index, stanza) in header.stanzas.enumerated() {
                let detail = switch stanza.kind {
                case .passphrase: " (scrypt 2^\(stanza.body[16]), 1 lane)"
                case .passphraseLanes: " (scrypt 2^\(stanza.body[16]), \(stanza.body[17]) lanes)"
                default: ""
                }
                lines.append("  \(index + 1). \(stanza.kind)\(detail)")
            }
            lines.append("plaintext: \(layout.plaintextBytes) bytes in \(layout.chunks) chunk\(layout.chunks == 1 ? "" : "s") of 64 KiB")
            return lines
        case .fileLock:
            let size = try FileLockPackage.plaintextLength(of: try stream.readAll())
            return ["format: FileLock package", "recipients: 1", "  1. P-256 key (Apple ECIES)", "plaintext: \(size) bytes"]
        }
    }
}

extension FileLockPackage {
    /// Opens `package` with the first of `identities` that can: only P-256 keys can open a FileLock package;
    /// none among them is `noMatchingRecipient`, and none that opens it the one opaque `cannotDecrypt`.
    public static func open(_ package: [UInt8], usingAny identities: [FileIdentity]) throws -> [UInt8] {
        let keys = identities.compactMap { identity -> (any P256KeyAgreementSecret)? in
            switch identity {
            case .p256(let key): key
            case .p256Held(let key): key
            default: nil
            }
        }
        guard !keys.isEmpty else {
            throw FileError.noMatchingRecipient(needed: identities.map(\.kind.description).joined(separator: " or "), present: ["P-256 key (FileLock)"])
        }
        var lastError: Error = FileError.cannotDecrypt
        for key in keys {
            do {
                return try open(package, using: key)
            } catch let error as FileError where error == .cannotDecrypt {
                lastError = error
            }
        }
        throw lastError
    }
}
