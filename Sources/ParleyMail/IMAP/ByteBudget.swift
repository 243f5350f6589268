import Synchronization

/// How many bytes the server may still send for the command in progress (docs/MAIL.md §2). The session
/// grants an allowance before each command; the bridge spends it and closes the connection when it runs out.
final class ByteBudget: Sendable {
    private struct State {
        var allowance = ByteBudget.ordinaryCommand
        var remaining = ByteBudget.ordinaryCommand
        var exceeded: Int?
    }

    /// What an ordinary command (LOGIN, SELECT, LIST, a FETCH without bodies) may receive.
    static let ordinaryCommand = 1 << 20
    /// The most any one command may receive.
    static let largestCommand = 64 << 20

    private let state = Mutex(State())

    /// Grants `bytes` (at most `largestCommand`) for the next command.
    func allow(_ bytes: Int) {
        let bytes = min(max(bytes, Self.ordinaryCommand), Self.largestCommand)
        state.withLock { $0.allowance = bytes; $0.remaining = bytes }
    }

    /// Spends `bytes`; false (and remembered) when that goes past the allowance.
    func spend(_ bytes: Int) -> Bool {
        state.withLock { state in
            state.remaining -= bytes
            if state.remaining < 0, state.exceeded == nil { state.exceeded = state.allowance }
            return state.remaining >= 0
        }
    }

    /// The allowance that was exceeded, if one was.
    var exceeded: Int? { state.withLock { $0.exceeded } }
}
