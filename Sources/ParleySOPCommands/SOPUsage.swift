import ArgumentParser
import ParleyPGP
import ParleyTerminal

/// SOP's exit codes for command-line mistakes (draft-dkg-openpgp-stateless-cli §7): 37 for an option
/// `parley sop` does not support, 69 for an unknown subcommand, 19 for a missing argument.
/// ArgumentParser reports all of these as one usage error (exit 64), but an interoperability harness
/// tells them apart, so `parley`'s and `parley-sop`'s `main` ask here first (`SOPUsage.exit`).
public enum SOPUsage {
    /// ArgumentParser's parse errors, by the name of their case, that mean an unsupported option.
    static let unsupportedOption: Set<String> = [
        "unknownOption", "invalidOption", "nonAlphanumericShortOption", "unexpectedValueForOption",
        "missingValueOrUnknownCompositeOption", "unableToParseValue", "unexpectedExtraValues",
    ]
    /// Parse errors that mean a required argument, or an option's value, is missing.
    static let missingArgument: Set<String> = ["noValue", "missingValueForOption"]

    /// Ends the program with SOP's code when `error` is an operation's `SOPFailure` or a SOP parse mistake, its
    /// message on standard error with controls made visible; returns for anything else, which the program reports as
    /// usual. `sopRoot` is the command whose subcommands are SOP's (`SOPCommand` under `parley`, `parley-sop`
    /// itself), `name` how messages call the program.
    public static func exitIfSOP(_ error: any Error, sopRoot: ParsableCommand.Type, name: String) {
        guard let (code, message) = exit(for: error, sopRoot: sopRoot, name: name) else { return }
        StandardStreams.err(TerminalText.visible(message) + "\n")
        SOPCommand.exit(withError: ExitCode(code))
    }

    /// What a SOP program prints and the code it exits with for `error`: an operation's `SOPFailure` (its kind's
    /// code) or a SOP parse mistake (`failure(for:…)`); nil for anything else.
    static func exit(for error: any Error, arguments: [String] = Array(CommandLine.arguments.dropFirst()),
                     sopRoot: ParsableCommand.Type, name: String) -> (code: Int32, message: String)? {
        if let failure = error as? SOPFailure {
            // An operation failed: SOP's exit code for its kind (draft-dkg-openpgp-stateless-cli §7).
            return (SOPIO.code(failure.kind), "\(name): \(failure.message)")
        }
        return failure(for: error, arguments: arguments, sopRoot: sopRoot, name: name)
    }

    /// The SOP exit code and the message for a parse `error` of a SOP command line (`arguments` without the
    /// program name); nil for other commands, for help and version requests, and for errors thrown once
    /// a subcommand runs (those carry their own codes).
    static func failure(for error: any Error, arguments: [String], sopRoot: ParsableCommand.Type, name: String) -> (code: Int32, message: String)? {
        guard let (commands, kind) = parseFailure(error), commands.contains(where: { $0 == sopRoot }) else { return nil }
        if commands.last == sopRoot {
            // No subcommand was recognized, so a word after the SOP command names one it does not have, whatever
            // else is wrong (ArgumentParser reports an unknown option first).
            let words = sopRoot == SOPCommand.self ? Array(arguments.drop(while: { $0 != "sop" }).dropFirst()) : arguments
            if let word = words.first(where: { !$0.hasPrefix("-") }) {
                return (SOPIO.code(.unsupportedSubcommand), "Error: \(name) has no subcommand '\(word)'; `\(name) --help` lists them")
            }
        }
        if unsupportedOption.contains(kind) { return (SOPIO.code(.unsupportedOption), SOPCommand.fullMessage(for: error)) }
        if missingArgument.contains(kind) { return (SOPIO.code(.missingArgument), SOPCommand.fullMessage(for: error)) }
        return nil
    }

    /// The commands parsed so far and the name of the parse error's case. ArgumentParser keeps its
    /// error type internal, so the names are read by reflection; SOPCommandTests pins every code, so a
    /// change in ArgumentParser shows up there as exit 64 rather than passing unnoticed.
    static func parseFailure(_ error: Error) -> (commands: [ParsableCommand.Type], kind: String)? {
        let fields = Mirror(reflecting: error).children
        guard let commands = fields.first(where: { $0.label == "commandStack" })?.value as? [ParsableCommand.Type],
              let parserError = fields.first(where: { $0.label == "parserError" })?.value else { return nil }
        // An enum case prints as `name(payload…)` or just `name`.
        return (commands, String(String(describing: parserError).prefix { $0 != "(" }))
    }
}
