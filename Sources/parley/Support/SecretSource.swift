import Foundation
import ParleyTerminal

/// Reads a key or a link that carries one from a file, standard input (`-`) or the environment — the
/// places other users of the machine cannot see, unlike the command line (`ps`, shell history).
enum SecretSource {
    /// The first line of `file` (standard input for `-`), else the non-empty `environment` variable, else nil.
    /// Errors name the file and what to put in it, never the content.
    static func read(file: String?, environment: String, what: String) throws -> String? {
        guard let file else {
            guard let value = ProcessInfo.processInfo.environment[environment] else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: file) else {
                throw CommandFailure("\(file) cannot be read: check the path and its permissions")
            }
            data = contents
        }
        let firstLine = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
        let value = firstLine.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else {
            throw CommandFailure("\(file == "-" ? "standard input" : file) is empty: put the \(what) on its first line")
        }
        return value
    }
}
