import ArgumentParser

extension ParsableCommand {
    /// Ends the program for `error` as ArgumentParser's `exit(withError:)` does, except that what it prints has its
    /// controls made visible: ArgumentParser quotes what was typed ("The value '…' is invalid", "Unknown option
    /// '…'"), and a script may pass a value that came from someone else. `parley`, `parley-file` and `parley-sop`
    /// end this way.
    public static func exitShowing(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        guard code != .success else { exit(withError: error) }
        StandardStreams.err(TerminalText.visible(fullMessage(for: error)) + "\n")
        exit(withError: ExitCode(code.rawValue))
    }
}
