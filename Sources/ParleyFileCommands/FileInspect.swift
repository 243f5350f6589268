import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyFiles
import ParleyTerminal

extension FileCommand {
    /// `parley file inspect`: what an encrypted file is, without any key.
    public struct Inspect: AsyncParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Show an encrypted file's format, recipients and plaintext size (no key needed).")

        @Argument(help: "The encrypted file ('-' for standard input).")
        var input: String

        public init() {}

        public func run() async throws {
            let source = try StreamInput.stream(input)
            defer { source.close() }
            let prefix = try source.input.readPrefix(FileFormat.prefixLength)
            guard let format = FileFormat.detect(prefix) else { throw FileError.notEncryptedFile }
            for line in try FileDescription.lines(format: format, prefix: prefix, rest: source.input, size: source.size) { Console.out(line) }
        }
    }
}
