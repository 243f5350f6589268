/// One setting: an option's long name and its value or values.
public struct Setting: Equatable, Sendable {
    /// One value: text, or whether a flag is on.
    public enum Value: Equatable, Sendable {
        /// What follows the option on a command line.
        case text(String)
        /// `true` turns a flag on; `false` leaves it off.
        case flag(Bool)
    }

    /// The option's long name, without the dashes.
    public let key: String
    /// Its value, or its values for an option given more than once.
    public let values: [Value]
    /// Where it came from, for error messages: "FILE line N" or "environment variable NAME".
    public let origin: String

    /// A setting of `key` to `values`, from `origin`.
    public init(key: String, values: [Value], origin: String) {
        self.key = key
        self.values = values
        self.origin = origin
    }

    /// The command-line words this setting stands for.
    public var arguments: [String] {
        values.flatMap { value -> [String] in
            switch value {
            case .text(let text): ["--\(key)", text]
            case .flag(let on): on ? ["--\(key)"] : []
            }
        }
    }
}
