import ArgumentParser
import ParleyPGP

/// SOP's exit codes for command-line mistakes (draft-dkg-openpgp-stateless-cli §7): 37 for an option
/// `parley sop` does not support, 69 for an unknown subcommand, 19 for a missing argument.
/// ArgumentParser reports all of these as one usage error (exit 64), but an interoperability harness
/// tells them apart, so `Parley.main` asks here first.
enum SOPUsage {
    /// ArgumentParser's parse errors, by the name of their case, that mean an unsupported option.
    static let unsupportedOption: Set<String> = [
        "unknownOption", "invalidOption", "nonAlphanumericShortOption", "unexpectedValueForOption",
        "missingValueOrUnknownCompositeOption", "unableToParseValue", "unexpectedExtraValues",
    ]
    /// Parse errors that mean a required argument, or an option's value, is missing.
    static let missingArgument: Set<String> = ["noValue", "missingValueForOption"]

    /// The SOP exit code and the message for a parse `error` of `parley sop …` (`arguments` without the
    /// program name); nil for other commands, for help and version requests, and for errors thrown once
    /// a subcommand runs (those carry their own codes).
    static func failure(for error: Error, arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> (code: Int32, message: String)? {
        guard let (commands, kind) = parseFailure(error), commands.contains(where: { $0 == Parley.SOP.self }) else { return nil }
        if commands.last == Parley.SOP.self {
            // No subcommand was recognized, so a word after `sop` names one it does not have, whatever
            // else is wrong (ArgumentParser reports an unknown option first).
            if let word = arguments.drop(while: { $0 != "sop" }).dropFirst().first(where: { !$0.hasPrefix("-") }) {
                return (SOPIO.code(.unsupportedSubcommand), "Error: parley sop has no subcommand '\(word)'; `parley sop --help` lists them")
            }
        }
        if unsupportedOption.contains(kind) { return (SOPIO.code(.unsupportedOption), Parley.fullMessage(for: error)) }
        if missingArgument.contains(kind) { return (SOPIO.code(.missingArgument), Parley.fullMessage(for: error)) }
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
