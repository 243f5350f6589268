import Foundation
import Yams

/// The configuration file of `parley server --config FILE` (docs/OPERATIONS.md §11): a YAML mapping whose keys
/// are `parley server`'s long options without the dashes and whose values are what follows the option on a
/// command line — a list for an option given more than once, `true` for a flag (`false` leaves it off), `null`
/// for not set.
///
/// ```yaml
/// listen: "[::]:7433"
/// data: /var/lib/parley
/// tls-cert: /etc/parley/tls/fullchain.pem   # reloaded on SIGHUP
/// registration: invite
/// ```
public enum ServerConfigFile {
    /// Larger than any real configuration; a bigger file is a mistake.
    public static let maximumSize = 64 * 1024

    /// The settings in the file at `path`, in file order.
    public static func read(_ path: String) throws -> [Setting] {
        let text = try contents(of: path)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch YamlError.duplicatedKeysInMapping(let duplicates, let context) {
            throw ServerConfigError("\(path) line \(context.mark.line): '\(duplicates.first ?? "")' is set twice")
        } catch let error as YamlError {
            throw ServerConfigError("\(path) is not valid YAML: \(describe(error))")
        } catch {
            throw ServerConfigError("\(path) is not valid YAML")
        }
        guard let root else { return [] }
        guard case .mapping(let mapping) = root else {
            throw ServerConfigError("\(path) must be a mapping of option names to values (for example 'listen: 0.0.0.0:7433')")
        }
        var seen: Set<String> = []
        return try mapping.map { pair in
            let origin = "\(path) line \(pair.key.mark?.line ?? 0)"
            guard case .scalar(let name) = pair.key else { throw ServerConfigError("\(origin): a key must be an option's name") }
            guard seen.insert(name.string).inserted else { throw ServerConfigError("\(origin): '\(name.string)' is set twice") }
            return Setting(key: name.string, values: try values(of: pair.value, origin: origin, key: name.string), origin: origin)
        }
    }

    private static func values(of node: Node, origin: String, key: String) throws -> [Setting.Value] {
        switch node {
        case .scalar(let scalar) where scalar.style == .plain && ["", "~", "null"].contains(scalar.string):
            return []  // null: not set, as if the key were absent
        case .scalar(let scalar):
            return [value(of: scalar)]
        case .sequence(let sequence):
            return try sequence.map { item in
                guard case .scalar(let scalar) = item else { throw ServerConfigError("\(origin): '\(key)' must be a value or a list of values") }
                return value(of: scalar)
            }
        case .mapping, .alias:
            throw ServerConfigError("\(origin): '\(key)' must be a value or a list of values, not a section")
        }
    }

    /// A plain `true` or `false` is a flag's setting; anything else (quoted "true" too) is text.
    private static func value(of scalar: Node.Scalar) -> Setting.Value {
        if scalar.style == .plain, scalar.string == "true" || scalar.string == "false" { return .flag(scalar.string == "true") }
        return .text(scalar.string)
    }

    /// The file's text: a regular file of sensible size that no one but its owner (and root) may change,
    /// since whoever can change it decides how the server runs.
    private static func contents(of path: String) throws -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { throw ServerConfigError("cannot read the configuration file \(path): \(String(cString: strerror(errno)))") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw ServerConfigError("\(path) is not a file") }
        guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw ServerConfigError("\(path) may be changed by other users; let only its owner write it (chmod go-w \(path))")
        }
        guard status.st_size <= maximumSize else { throw ServerConfigError("\(path) is larger than \(maximumSize / 1024) KiB; is it the right file?") }
        guard let data = FileManager.default.contents(atPath: path) else { throw ServerConfigError("cannot read the configuration file \(path)") }
        guard let text = String(data: data, encoding: .utf8) else { throw ServerConfigError("\(path) is not UTF-8 text") }
        return text
    }

    private static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            "line \(mark.line): \(problem)\(context.map { " \($0.text)" } ?? "")"
        default:
            // Never the error's own description: it quotes the file, which may hold a password.
            "it cannot be read as YAML"
        }
    }
}
