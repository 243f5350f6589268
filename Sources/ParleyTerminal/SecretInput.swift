#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads passwords and PINs from a prompt, standard input or the environment — never from argv.
public enum SecretInput {
    /// Why no secret could be read.
    public struct Unavailable: Error, CustomStringConvertible {
        let what: String
        var variable = "PARLEY_PASSWORD"
        public var description: String {
            "no \(what) given: type it at the prompt, pipe it with --password-stdin, or set \(variable)"
        }
    }

    /// Returns the password from `--password-stdin` (its next line), then the environment variable `variable`, then a
    /// terminal prompt.
    public static func password(prompt: String, fromStandardInput: Bool, variable: String = "PARLEY_PASSWORD") throws -> String {
        if fromStandardInput {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw Unavailable(what: "password on standard input", variable: variable)
            }
            return line
        }
        if let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty {
            return value
        }
        guard isatty(STDIN_FILENO) == 1 else { throw Unavailable(what: "password", variable: variable) }
        return try readHidden(prompt: prompt)
    }

    /// A hardware key's PIN: the first line of standard input, PARLEY_PIN, or the terminal; 4–32 bytes, NFC.
    public static func pin(prompt: String, fromStandardInput: Bool) throws -> [UInt8] {
        let text: String
        if fromStandardInput {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw Unavailable(what: "PIN on standard input") }
            text = line
        } else if let value = ProcessInfo.processInfo.environment["PARLEY_PIN"], !value.isEmpty {
            text = value
        } else {
            guard isatty(STDIN_FILENO) == 1 else { throw Unavailable(what: "PIN (set PARLEY_PIN or use a terminal)") }
            text = try readHidden(prompt: prompt)
        }
        let bytes = text.nfcBytes
        guard (4...32).contains(bytes.count) else { throw CommandFailure("a PIN must be 4 to 32 bytes") }
        return bytes
    }

    /// Prompts on the terminal with echo turned off.
    public static func readHidden(prompt: String) throws -> String {
        StandardStreams.err(prompt)
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            StandardStreams.err("\n")
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw Unavailable(what: "password")
        }
        return line
    }
}
