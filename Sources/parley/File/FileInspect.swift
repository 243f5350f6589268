import ArgumentParser
import Foundation
import ParleyFiles

extension Parley.File {
    /// `parley file inspect`: what an encrypted file is, without any key.
    struct Inspect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Show an encrypted file's format, recipients and plaintext size (no key needed).")

        @Argument(help: "The encrypted file ('-' for standard input).")
        var input: String

        func run() async throws {
            let source = try StreamInput.stream(input)
            defer { source.close() }
            let prefix = try source.input.readPrefix(FileFormat.prefixLength)
            guard let format = FileFormat.detect(prefix) else { throw FileError.notEncryptedFile }
            let stream = MemoryInput(prefix, then: source.input)
            switch format {
            case .parleyV1:
                let header = try FileOpener.readHeader(from: stream)
                let payload = try source.size.map { $0 - UInt64(header.encoded.count) } ?? stream.countRemaining()
                let layout = try PayloadLayout.measure(payloadBytes: payload)
                print("format: Parley file v1")
                print("recipients: \(header.stanzas.count)")
                for (index, stanza) in header.stanzas.enumerated() {
                    let detail = switch stanza.kind {
                    case .passphrase: " (scrypt 2^\(stanza.body[16]), 1 lane)"
                    case .passphraseLanes: " (scrypt 2^\(stanza.body[16]), \(stanza.body[17]) lanes)"
                    default: ""
                    }
                    print("  \(index + 1). \(stanza.kind)\(detail)")
                }
                print("plaintext: \(layout.plaintextBytes) bytes in \(layout.chunks) chunk\(layout.chunks == 1 ? "" : "s") of 64 KiB")
            case .fileLock:
                let package = try stream.readAll()
                let size = try FileLockPackage.plaintextLength(of: package)
                print("format: FileLock package")
                print("recipients: 1")
                print("  1. P-256 key (Apple ECIES)")
                print("plaintext: \(size) bytes")
            }
        }
    }
}
