import ArgumentParser

extension Parley {
    /// `parley envelope`: protect a secret file under a password (ECP1).
    struct Envelope: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "envelope",
            abstract: "Seal a secret (a private key, a recovery code) under a password, or open it again.",
            discussion: """
                The password comes from a prompt, from --password-stdin, or from PARLEY_PASSWORD; \
                never from a command-line argument. Format: ECP1 (docs/FORMATS.md).
                """,
            subcommands: [Seal.self, Open.self]
        )
    }
}

/// Options shared by the envelope subcommands.
struct EnvelopeOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Read from this file ('-' for standard input).")
    var input: String

    @Option(name: .shortAndLong, help: "Write to this file ('-' for standard output).")
    var output: String

    @Flag(help: "Read the password from the first line of standard input.")
    var passwordStdin = false

    @Flag(help: "Replace the output file if it exists.")
    var force = false

    func validate() throws {
        if passwordStdin, input == "-" {
            throw ValidationError("--password-stdin and --input - both need standard input; give --input a file")
        }
    }
}
