import ParleyPGP

/// Why a `parley mail` flow (sending, replying, opening a stored message) stopped, in the user's words: what
/// to import, pass or try next. Never holds a password, a key or mail content.
public struct MailFlowError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What happened and what to do.
    public let description: String

    /// A failure described by `description`.
    public init(_ description: String) { self.description = description }

    /// Runs `body`, a store or server failure said in its own words.
    static func run<T>(_ body: () throws(MailboxError) -> T) throws(MailFlowError) -> T {
        do {
            return try body()
        } catch {
            throw MailFlowError("\(error)")
        }
    }

    /// Runs `body`, an OpenPGP failure said with its advice (`PGPError.advice`).
    static func pgp<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PGPError {
            throw MailFlowError(error.advice())
        } catch let error as PGPStreamIOError {
            throw MailFlowError(error.description)
        }
    }
}
