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

    /// A hardware key's PIN: the first line of standard input, PARLEY_PIN, or the terminal; 4–32 bytes, NFC.
    static func pin(prompt: String, fromStandardInput: Bool) throws -> [UInt8] {
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
        let bytes = Array(text.precomposedStringWithCanonicalMapping.utf8)
        guard (4...32).contains(bytes.count) else { throw CommandFailure("a PIN must be 4 to 32 bytes") }
        return bytes
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
