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
    /// `parley file seal`: encrypt a file for recipients and/or a passphrase.
    public struct Seal: AsyncParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "seal",
            abstract: "Encrypt a file for one or more public keys and/or a passphrase.")

        @Option(name: [.customShort("r"), .customLong("recipient")], help: "A recipient's public key file (repeatable).")
        var recipients: [String] = []

        @Flag(help: "Also let a passphrase open the file (asked for like a password).")
        var passphrase = false

        @Option(help: "scrypt memory factor log2(N) for --passphrase (14–20; scrypt uses 2^N KiB: 14 is 16 MiB).")
        var workFactor: UInt8 = FileRecipient.defaultLogN

        @Option(help: "scrypt lanes for --passphrase (1–64): work grows with lanes, memory does not. 2^14 × 16 is as much work as age's 2^18 in 16 MiB.")
        var lanes: UInt8 = FileRecipient.defaultLanes

        @Option(help: "Output format: v1 (default) or filelock (one P-256 recipient, held in memory).")
        var format: OutputFormat = .v1

        @Argument(help: "The file to encrypt ('-' for standard input).")
        var input: String

        @Option(name: .shortAndLong, help: "Where to write the encrypted file ('-' for standard output).")
        var output: String

        @Flag(help: "Read the passphrase from the first line of standard input.")
        var passwordStdin = false

        @Flag(help: "Replace the output file if it exists.")
        var force = false

        public init() {}

        public func validate() throws {
            try FileKeys.checkStandardInput(passwordStdin: passwordStdin, input: input, needsSecret: passphrase)
            if recipients.isEmpty, !passphrase {
                throw ValidationError("give at least one -r PUBLIC_KEY or --passphrase")
            }
            if format == .filelock, recipients.count != 1 || passphrase {
                throw ValidationError("a FileLock package has exactly one P-256 recipient and no passphrase")
            }
            if passphrase, let problem = FileRecipient.scryptParametersProblem(
                logN: workFactor, lanes: lanes, logNRange: FileRecipient.sealLogNRange)
            {
                throw ValidationError(problem)
            }
        }

        public func run() async throws {
            var list = try recipients.map(FileKeys.recipient(path:))
            if passphrase {
                let secret = try SecretInput.password(prompt: "Passphrase: ", fromStandardInput: passwordStdin)
                list.append(.passphrase(secret, logN: workFactor, lanes: lanes))
            }
            let source = try StreamInput.stream(input)
            defer { source.close() }
            if format == .filelock {
                guard case .p256(let key) = list[0] else {
                    throw ValidationError("a FileLock package needs a P-256 public key")
                }
                let plaintext = Array(try FileIO.read(input))
                let package = try FileLockPackage.seal(plaintext, to: key)
                try AtomicOutput.write(to: output, force: force) { try $0.write(package) }
                return
            }
            let progress = ProgressReporter.make(verb: "sealed", total: source.size)
            try AtomicOutput.write(to: output, force: force) { stream in
                try FileSealer.seal(from: source.input, to: stream, recipients: list, progress: progress)
            }
        }
    }
}

/// The formats `seal` can write.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case v1, filelock
}
