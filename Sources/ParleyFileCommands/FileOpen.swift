import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto
import ParleyFiles
import ParleyTerminal

extension FileCommand {
    /// `parley file open`: decrypt a Parley v1 file or a FileLock package.
    public struct Open: AsyncParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "open",
            abstract: "Decrypt a Parley v1 file or a FileLock package with a private key or the passphrase.",
            discussion: """
                Without -i, the passphrase is asked for. The plaintext is written to a temporary file and \
                renamed into place only after the last chunk authenticates, so a failed open leaves nothing behind.
                """)

        @Option(name: [.customShort("i"), .customLong("identity")], help: "A private key file (repeatable): a key envelope from keygen, or a P-256 key (PKCS#8, SEC1, Apple raw).")
        var identities: [String] = []

        @Argument(help: "The encrypted file ('-' for standard input).")
        var input: String

        @Option(name: .shortAndLong, help: "Where to write the plaintext ('-' for standard output).")
        var output: String

        @Flag(help: "Read the key's password or the file's passphrase from the first line of standard input.")
        var passwordStdin = false

        @Flag(help: "Replace the output file if it exists.")
        var force = false

        public init() {}

        public func validate() throws {
            try FileKeys.checkStandardInput(passwordStdin: passwordStdin, input: input, needsSecret: true)
        }

        public func run() async throws {
            if output != "-" { try OutputPlace.check(output, force: force) }
            let source = try StreamInput.stream(input)
            defer { source.close() }
            let prefix = try source.input.readPrefix(FileFormat.prefixLength)
            guard let format = FileFormat.detect(prefix) else { throw FileError.notEncryptedFile }
            let keys: [FileIdentity] =
                identities.isEmpty
                ? [.passphrase(try SecretInput.password(prompt: "Passphrase: ", fromStandardInput: passwordStdin))]
                : try identities.map { try FileKeys.identity(path: $0, passwordFromStandardInput: passwordStdin) }
            let stream = MemoryInput(prefix, then: source.input)
            switch format {
            case .parleyV1:
                let progress = ProgressReporter.make(verb: "opened", total: source.size)
                try AtomicOutput.write(to: output, force: force, mode: 0o600) { sink in
                    try FileOpener.open(from: stream, to: sink, identities: keys, progress: progress)
                }
            case .fileLock:
                let plaintext = try FileLockPackage.open(try stream.readAll(), usingAny: keys)
                try AtomicOutput.write(to: output, force: force, mode: 0o600) { try $0.write(plaintext) }
            }
        }
    }
}
