import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads passwords and PINs from a prompt, standard input or the environment — never from argv.
enum SecretInput {
    /// Why no secret could be read.
    struct Unavailable: Error, CustomStringConvertible {
        let what: String
        var description: String {
            "no \(what) given: type it at the prompt, pipe it with --password-stdin, or set PARLEY_PASSWORD"
        }
    }

    /// Returns the password from `--password-stdin`, then `PARLEY_PASSWORD`, then a terminal prompt.
    static func password(prompt: String, fromStandardInput: Bool) throws -> String {
        if fromStandardInput {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw Unavailable(what: "password on standard input")
            }
            return line
        }
        if let value = ProcessInfo.processInfo.environment["PARLEY_PASSWORD"], !value.isEmpty {
            return value
        }
        guard isatty(STDIN_FILENO) == 1 else { throw Unavailable(what: "password") }
        return try readHidden(prompt: prompt)
    }

    /// Prompts on the terminal with echo turned off.
    static func readHidden(prompt: String) throws -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw Unavailable(what: "password")
        }
        return line
    }
}
