/// Failures a `Store` reports; descriptions never include stored values.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A unique value (e-mail, id) is already taken.
    case conflict(String)
    /// The database could not be opened, migrated or written.
    case unavailable(String)

    public var description: String {
        switch self {
        case .conflict(let what): "\(what) is already taken"
        case .unavailable(let why): "the database is unavailable: \(why)"
        }
    }
}
