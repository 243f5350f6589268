/// The connection's lifecycle as a value: events in, actions out, no sockets and no clock (the postgres-nio
/// pattern). `ParleyClient` tells it what happened — a socket opened or failed, a login or the setup after it
/// ended, the socket closed, the reconnect timer fired — and carries out what it answers; tests drive it
/// directly (ConnectionStateMachineTests).
///
/// Every socket gets a generation number. Events about another socket than the current one are ignored, so a
/// late close of a replaced connection can never tear down its successor.
struct ConnectionStateMachine: Sendable, Equatable {
    /// Who started the attempt under way: a failure ends a user's attempt (the caller hears the error), while a
    /// reconnect's failure waits and tries again.
    enum Origin: Sendable, Equatable {
        /// `connect()`; `reopened` once the login found the socket gone and a fresh one was opened.
        case user(reopened: Bool)
        /// A socket without login, for registration or pairing.
        case anonymous
        /// The reconnect timer's attempt `attempt` (0 = the first after a loss).
        case reconnect(attempt: Int)
    }

    /// Why the client stopped for good: only `connect()` starts it again.
    enum StopReason: Sendable, Equatable {
        /// Another device rotated the keys or removed this one: the auth key no longer logs in.
        case signedOut
        /// The operator disabled the account.
        case disabled
    }

    /// Where the connection stands.
    enum State: Sendable, Equatable {
        /// No socket and none wanted.
        case idle
        /// Opening socket `generation` and saying hello on it.
        case opening(generation: Int, origin: Origin)
        /// Socket `generation` is open without a login (registration, pairing): the server decides what it allows.
        case anonymous(generation: Int)
        /// The login runs on socket `generation`: only the login's own requests may use it.
        case loggingIn(generation: Int, origin: Origin)
        /// Logged in on socket `generation`; the setup after login (keys, outbox, catch-up) runs.
        case settingUp(generation: Int, origin: Origin)
        /// Logged in and set up on socket `generation`.
        case ready(generation: Int)
        /// The socket was lost; reconnect attempt `attempt` waits for its timer.
        case waiting(attempt: Int)
        /// Stopped for good.
        case stopped(StopReason)
    }

    /// What the client must do next, in order.
    enum Action: Sendable, Equatable {
        /// Open socket `generation` and say hello on it.
        case open(generation: Int)
        /// Log in on the open socket.
        case logIn
        /// Logged in: run the setup (keys, outbox, catch-up).
        case setUp
        /// Close the current socket.
        case close
        /// Tell subscribers the connection is gone.
        case reportDisconnected
        /// Start the timer of reconnect attempt `attempt` (the client picks the delay from its policy).
        case scheduleReconnect(attempt: Int)
        /// Cancel a pending reconnect timer.
        case cancelReconnect
        /// Tell subscribers the client stopped for good, and why.
        case reportStopped(StopReason)
    }

    /// How an open, a login or the setup ended badly.
    enum Failure: Sendable, Equatable {
        /// The socket was already gone when the login started (a socket the server closed at its login timeout).
        case socketGone
        /// Anything that may pass: a refused socket, a dropped one, a lockout, a busy server.
        case transient
        /// The auth key no longer logs in.
        case signedOut
        /// The account is disabled.
        case disabled
    }

    private(set) var state: State = .idle
    /// Whether a lost connection is opened again by itself.
    private(set) var reconnects = false
    private var lastGeneration = 0
    /// The current socket closed while a step (open, login, setup) was under way on it. The step's owner is still
    /// waiting for it and decides: the step fails even if its last answer arrived before the close did.
    private var closedMidStep = false

    /// The current socket's generation, if there is a socket.
    var generation: Int? {
        switch state {
        case .opening(let generation, _), .anonymous(let generation), .loggingIn(let generation, _), .settingUp(let generation, _),
            .ready(let generation):
            generation
        case .idle, .waiting, .stopped:
            nil
        }
    }

    /// Whether the client counts as connected: logged in (during the setup too).
    /// Whether an attempt to connect is under way (opening, logging in or setting up).
    var attemptUnderWay: Bool {
        switch state {
        case .opening, .loggingIn, .settingUp: true
        case .idle, .anonymous, .ready, .waiting, .stopped: false
        }
    }

    var isConnected: Bool {
        switch state {
        case .settingUp, .ready: true
        default: false
        }
    }

    /// Whether a request of `method` may go out now. During the login only its own requests may: anything else
    /// would be refused as unauthenticated, and must wait (in the outbox) instead.
    func mayCall(_ method: String) -> Bool {
        switch state {
        case .anonymous, .settingUp, .ready: true
        case .loggingIn: method == "login_start" || method == "login_finish"
        case .idle, .opening, .waiting, .stopped: false
        }
    }

    // MARK: Events from the user

    /// `connect(reconnect:)`: log in, on the anonymous socket if one is open, else on a new one.
    mutating func connectRequested(reconnect: Bool) -> [Action] {
        reconnects = reconnect
        switch state {
        case .idle, .stopped:
            return [open(.user(reopened: false))]
        case .waiting:
            return [.cancelReconnect, open(.user(reopened: false))]
        case .anonymous(let generation):
            state = .loggingIn(generation: generation, origin: .user(reopened: false))
            return [.logIn]
        case .opening, .loggingIn, .settingUp, .ready:
            return []
        }
    }

    /// A socket without login is wanted (registration, pairing): open one unless there is a socket already.
    mutating func anonymousRequested() -> [Action] {
        switch state {
        case .idle, .stopped:
            return [open(.anonymous)]
        case .waiting:
            return [.cancelReconnect, open(.anonymous)]
        case .opening, .anonymous, .loggingIn, .settingUp, .ready:
            return []
        }
    }

    /// `disconnect()`: close whatever there is and stop reconnecting. Subscribers are not told: they asked.
    mutating func disconnectRequested() -> [Action] {
        reconnects = false
        switch state {
        case .idle, .stopped:
            return []
        case .waiting:
            state = .idle
            return [.cancelReconnect]
        case .opening, .anonymous, .loggingIn, .settingUp, .ready:
            state = .idle
            return [.close]
        }
    }

    // MARK: Events from the socket and the steps

    /// Socket `generation` opened and its hello was answered.
    mutating func opened(generation: Int) -> [Action] {
        guard case .opening(generation, let origin) = state else { return [] }
        if closedMidStep { return failed(origin, close: true) }
        if origin == .anonymous {
            state = .anonymous(generation: generation)
            return []
        }
        state = .loggingIn(generation: generation, origin: origin)
        return [.logIn]
    }

    /// Opening socket `generation` failed.
    mutating func openFailed(generation: Int) -> [Action] {
        guard case .opening(generation, let origin) = state else { return [] }
        return failed(origin, close: false)
    }

    /// The login on socket `generation` succeeded.
    mutating func loggedIn(generation: Int) -> [Action] {
        guard case .loggingIn(generation, let origin) = state else { return [] }
        if closedMidStep { return loginFailed(generation: generation, .socketGone) }
        state = .settingUp(generation: generation, origin: origin)
        return [.setUp]
    }

    /// The login on socket `generation` failed.
    mutating func loginFailed(generation: Int, _ failure: Failure) -> [Action] {
        guard case .loggingIn(generation, let origin) = state else { return [] }
        switch failure {
        case .socketGone where origin == .user(reopened: false):
            return [.close, open(.user(reopened: true))]
        case .socketGone, .transient:
            return failed(origin, close: true)
        case .signedOut:
            return stop(.signedOut)
        case .disabled:
            return stop(.disabled)
        }
    }

    /// The setup after login on socket `generation` finished.
    mutating func setUp(generation: Int) -> [Action] {
        guard case .settingUp(generation, let origin) = state else { return [] }
        // Subscribers heard `connected` during the setup: they hear of the loss too.
        if closedMidStep { return [.reportDisconnected] + failed(origin, close: true) }
        state = .ready(generation: generation)
        return []
    }

    /// The setup after login on socket `generation` failed.
    mutating func setupFailed(generation: Int, _ failure: Failure) -> [Action] {
        guard case .settingUp(generation, let origin) = state else { return [] }
        switch failure {
        case .signedOut: return stop(.signedOut)
        case .disabled: return stop(.disabled)
        case .socketGone, .transient:
            let report: [Action] = closedMidStep ? [.reportDisconnected] : []
            return report + failed(origin, close: true)
        }
    }

    /// Socket `generation` closed: the server or the network ended it, or a health check found it dead.
    mutating func lost(generation: Int) -> [Action] {
        guard self.generation == generation else { return [] }
        switch state {
        case .ready:
            return [.reportDisconnected] + waitOrRest(attempt: 0)
        case .anonymous:
            state = .idle
            return [.reportDisconnected]
        case .opening, .loggingIn, .settingUp:
            // The step under way fails on its own (its request fails, or its end is refused below), and its owner,
            // who waits for it, hears why.
            closedMidStep = true
            return []
        case .idle, .waiting, .stopped:
            return []
        }
    }

    /// The reconnect timer fired.
    mutating func reconnectTimerFired() -> [Action] {
        guard case .waiting(let attempt) = state, reconnects else { return [] }
        return [open(.reconnect(attempt: attempt))]
    }

    // MARK: Transitions

    private mutating func open(_ origin: Origin) -> Action {
        closedMidStep = false
        lastGeneration += 1
        state = .opening(generation: lastGeneration, origin: origin)
        return .open(generation: lastGeneration)
    }

    /// The attempt of `origin` failed: a user's ends (the caller hears why), a reconnect's waits for the next.
    private mutating func failed(_ origin: Origin, close: Bool) -> [Action] {
        let closing: [Action] = close ? [.close] : []
        guard case .reconnect(let attempt) = origin else {
            state = .idle
            return closing
        }
        return closing + waitOrRest(attempt: attempt + 1)
    }

    /// Waits for reconnect attempt `attempt` when reconnecting, else rests.
    private mutating func waitOrRest(attempt: Int) -> [Action] {
        guard reconnects else {
            state = .idle
            return []
        }
        state = .waiting(attempt: attempt)
        return [.scheduleReconnect(attempt: attempt)]
    }

    private mutating func stop(_ reason: StopReason) -> [Action] {
        state = .stopped(reason)
        reconnects = false
        return [.close, .reportStopped(reason)]
    }
}
