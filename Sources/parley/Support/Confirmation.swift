import Foundation
import ParleyTerminal

/// A destructive command's confirmation: the person types the account's e-mail at a terminal, or passes --yes.
enum Confirmation {
    /// Returns when confirmed (or `yes`); throws, having changed nothing, otherwise. `what` says what will
    /// happen; `refusal` is said when there is no terminal to ask at.
    static func byTypingEmail(_ email: String, yes: Bool, what: String, refusal: String) throws {
        guard !yes else { return }
        guard isatty(STDIN_FILENO) == 1 else { throw CommandFailure(refusal) }
        FileHandle.standardError.write(Data("\(what) Type the e-mail to confirm: ".utf8))
        guard readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased() == email else {
            throw CommandFailure("not confirmed; nothing was changed")
        }
    }
}
