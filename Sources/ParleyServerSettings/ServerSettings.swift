import Foundation

/// `parley server`'s settings from three places (docs/OPERATIONS.md §11): a configuration file
/// (`--config FILE` or `PARLEY_SERVER_CONFIG`), environment variables `PARLEY_SERVER_<OPTION>`, and the command
/// line. Each setting is a long option of `parley server`, so a file, the environment and flags name the same
/// things and give the same server; they become one argument list in that order, and the last word wins.
public enum ServerSettings {
    /// The prefix of the environment variables that are settings.
    public static let environmentPrefix = "PARLEY_SERVER_"
    /// The environment variable that names a configuration file.
    public static let fileVariable = "PARLEY_SERVER_CONFIG"

    /// `arguments` (the whole command line after `parley`) with the file's and the environment's settings put
    /// in front of `server`'s own; unchanged for every other command and for `server`'s `subcommands`. `problem`
    /// parses one setting's arguments as `parley server` would and returns its error message, or nil when they
    /// parse, so a mistake names where it came from.
    public static func arguments(_ arguments: [String], environment: [String: String], subcommands: Set<String>,
                                 problem: ([String]) -> String?) throws -> [String] {
        guard arguments.first == "server" else { return arguments }
        var own = Array(arguments.dropFirst())
        if let first = own.first, subcommands.contains(first) { return arguments }
        let path = try takeConfigOption(from: &own) ?? environment[fileVariable].flatMap { $0.isEmpty ? nil : $0 }
        var settings: [Setting] = []
        if let path { settings += try ServerConfigFile.read(path) }
        settings += try fromEnvironment(environment)
        for setting in settings { try check(setting, problem: problem) }
        return ["server"] + settings.flatMap(\.arguments) + own
    }

    /// Removes `--config FILE` or `--config=FILE` from `arguments`, returning FILE.
    static func takeConfigOption(from arguments: inout [String]) throws -> String? {
        guard let index = arguments.firstIndex(where: { $0 == "--config" || $0.hasPrefix("--config=") }) else { return nil }
        let word = arguments[index]
        if word != "--config" {
            arguments.remove(at: index)
            return String(word.dropFirst("--config=".count))
        }
        guard index + 1 < arguments.count else { throw ServerConfigError("--config needs the path of a configuration file") }
        let path = arguments[index + 1]
        arguments.removeSubrange(index...index + 1)
        return path
    }

    /// `PARLEY_SERVER_TLS_CERT=/etc/…` is `--tls-cert /etc/…`; `PARLEY_SERVER_DEV=true` is `--dev`.
    public static func fromEnvironment(_ environment: [String: String]) throws -> [Setting] {
        environment.keys.filter { $0.hasPrefix(environmentPrefix) && $0 != fileVariable }.sorted().map { name in
            let key = name.dropFirst(environmentPrefix.count).lowercased().replacingOccurrences(of: "_", with: "-")
            let text = environment[name] ?? ""
            let value: Setting.Value = text == "true" || text == "false" ? .flag(text == "true") : .text(text)
            return Setting(key: key, values: [value], origin: "environment variable \(name)")
        }
    }

    /// Checks one setting on its own, so that a mistake names where it came from. The message never repeats
    /// a database URL or a password (either may hold a secret).
    static func check(_ setting: Setting, problem: ([String]) -> String?) throws {
        guard setting.key != "config" else { throw ServerConfigError("\(setting.origin): a configuration file cannot name another") }
        guard setting.key.range(of: "^[a-z][a-z0-9-]*$", options: .regularExpression) != nil else {
            throw ServerConfigError("\(setting.origin): '\(setting.key)' is not an option of 'parley server'")
        }
        guard var message = problem(setting.arguments) else { return }
        if message.contains("Unknown option") || message.contains("Unexpected argument '--") {
            throw ServerConfigError("\(setting.origin): '\(setting.key)' is not an option of 'parley server' (see 'parley server --help')")
        }
        if setting.key.contains("database") || setting.key.contains("password") {
            for case .text(let value) in setting.values where !value.isEmpty {
                message = message.replacingOccurrences(of: value, with: "…")
            }
        }
        throw ServerConfigError("\(setting.origin): \(message)")
    }
}
