@testable import ParleyClient
import ParleyTestSupport
import Testing

/// The connection's lifecycle without a socket: every path the client's reconnect, login and setup can take.
@Suite("Connection state machine")
struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine

    /// A machine logged in and set up on socket 1.
    static func ready(reconnect: Bool = true) -> Machine {
        var machine = Machine()
        #expect(machine.connectRequested(reconnect: reconnect) == [.open(generation: 1)])
        #expect(machine.opened(generation: 1) == [.logIn])
        #expect(machine.loggedIn(generation: 1) == [.setUp])
        #expect(machine.setUp(generation: 1) == [])
        #expect(machine.state == .ready(generation: 1))
        return machine
    }

    @Test("connect opens, logs in, sets up; during the login only the login's requests may go out")
    func happyPath() {
        var machine = Machine()
        #expect(!machine.mayCall("ping"))
        _ = machine.connectRequested(reconnect: true)
        #expect(!machine.mayCall("login_start"), "nothing goes out before the socket is open")
        _ = machine.opened(generation: 1)
        #expect(machine.mayCall("login_start") && machine.mayCall("login_finish"))
        #expect(!machine.mayCall("send_message"), "a send during the login would be refused as unauthenticated")
        #expect(!machine.isConnected)
        _ = machine.loggedIn(generation: 1)
        #expect(machine.isConnected && machine.mayCall("send_message"))
        _ = machine.setUp(generation: 1)
        #expect(machine.isConnected && machine.mayCall("get_messages"))
        #expect(machine.connectRequested(reconnect: true) == [], "connecting again while connected does nothing")
    }

    @Test("a lost connection reports, then reconnects with growing attempts until a login holds")
    func reconnects() {
        var machine = Self.ready()
        #expect(machine.lost(generation: 1) == [.reportDisconnected, .scheduleReconnect(attempt: 0)])
        #expect(!machine.mayCall("ping"))
        #expect(machine.reconnectTimerFired() == [.open(generation: 2)])
        #expect(machine.openFailed(generation: 2) == [.scheduleReconnect(attempt: 1)])
        #expect(machine.reconnectTimerFired() == [.open(generation: 3)])
        #expect(machine.opened(generation: 3) == [.logIn])
        #expect(machine.loginFailed(generation: 3, .transient) == [.close, .scheduleReconnect(attempt: 2)])
        #expect(machine.reconnectTimerFired() == [.open(generation: 4)])
        _ = machine.opened(generation: 4)
        _ = machine.loggedIn(generation: 4)
        #expect(machine.setupFailed(generation: 4, .transient) == [.close, .scheduleReconnect(attempt: 3)])
        #expect(machine.reconnectTimerFired() == [.open(generation: 5)])
        _ = machine.opened(generation: 5)
        _ = machine.loggedIn(generation: 5)
        _ = machine.setUp(generation: 5)
        #expect(machine.state == .ready(generation: 5))
        #expect(machine.lost(generation: 5) == [.reportDisconnected, .scheduleReconnect(attempt: 0)], "a new loss starts from the first wait")
    }

    @Test("without reconnect, a loss only reports")
    func noReconnect() {
        var machine = Self.ready(reconnect: false)
        #expect(machine.lost(generation: 1) == [.reportDisconnected])
        #expect(machine.state == .idle)
        #expect(machine.reconnectTimerFired() == [])
    }

    @Test("events about an older socket change nothing")
    func staleGenerations() {
        var machine = Self.ready()
        _ = machine.lost(generation: 1)
        _ = machine.reconnectTimerFired()   // socket 2 opening
        #expect(machine.lost(generation: 1) == [])
        #expect(machine.opened(generation: 1) == [])
        #expect(machine.openFailed(generation: 1) == [])
        #expect(machine.loggedIn(generation: 1) == [])
        #expect(machine.state == .opening(generation: 2, origin: .reconnect(attempt: 0)))
        _ = machine.opened(generation: 2)
        _ = machine.loggedIn(generation: 2)
        _ = machine.setUp(generation: 2)
        #expect(machine.lost(generation: 1) == [], "the old socket's late close does not tear down the new one")
        #expect(machine.state == .ready(generation: 2))
    }

    @Test("a failed connect() ends there, even when reconnecting was asked: the caller hears why")
    func userAttemptFails() {
        var machine = Machine()
        _ = machine.connectRequested(reconnect: true)
        #expect(machine.openFailed(generation: 1) == [])
        #expect(machine.state == .idle)
        _ = machine.connectRequested(reconnect: true)
        _ = machine.opened(generation: 2)
        #expect(machine.loginFailed(generation: 2, .transient) == [.close])
        #expect(machine.state == .idle)
    }

    @Test("a login that finds its socket gone opens a fresh one once, not twice")
    func socketGoneOnce() {
        var machine = Machine()
        _ = machine.anonymousRequested()
        _ = machine.opened(generation: 1)
        #expect(machine.state == .anonymous(generation: 1))
        #expect(machine.connectRequested(reconnect: false) == [.logIn], "the registration's socket is used for the login")
        #expect(machine.loginFailed(generation: 1, .socketGone) == [.close, .open(generation: 2)])
        _ = machine.opened(generation: 2)
        #expect(machine.loginFailed(generation: 2, .socketGone) == [.close])
        #expect(machine.state == .idle)
    }

    @Test("signed out or disabled stops for good: no reconnect, until connect() is asked again", arguments: [
        (Machine.Failure.signedOut, Machine.StopReason.signedOut), (.disabled, .disabled),
    ])
    func stops(failure: Machine.Failure, reason: Machine.StopReason) {
        var machine = Self.ready()
        _ = machine.lost(generation: 1)
        _ = machine.reconnectTimerFired()
        _ = machine.opened(generation: 2)
        #expect(machine.loginFailed(generation: 2, failure) == [.close, .reportStopped(reason)])
        #expect(machine.state == .stopped(reason))
        #expect(!machine.reconnects)
        #expect(machine.reconnectTimerFired() == [])
        #expect(machine.lost(generation: 2) == [])
        #expect(machine.connectRequested(reconnect: true) == [.open(generation: 3)])

        var settingUp = Self.ready()
        _ = settingUp.lost(generation: 1)
        _ = settingUp.reconnectTimerFired()
        _ = settingUp.opened(generation: 2)
        _ = settingUp.loggedIn(generation: 2)
        #expect(settingUp.setupFailed(generation: 2, failure) == [.close, .reportStopped(reason)])
    }

    @Test("disconnect closes whatever there is, cancels a waiting reconnect, and tells no one")
    func disconnects() {
        var ready = Self.ready()
        #expect(ready.disconnectRequested() == [.close])
        #expect(ready.state == .idle)
        #expect(ready.lost(generation: 1) == [], "the close we asked for is not a loss")

        var waiting = Self.ready()
        _ = waiting.lost(generation: 1)
        #expect(waiting.disconnectRequested() == [.cancelReconnect])
        #expect(waiting.reconnectTimerFired() == [], "a timer that fires anyway opens nothing")

        var idle = Machine()
        #expect(idle.disconnectRequested() == [])
    }

    @Test("connect() while a reconnect waits cancels the timer and opens now")
    func connectPreemptsTimer() {
        var machine = Self.ready()
        _ = machine.lost(generation: 1)
        #expect(machine.connectRequested(reconnect: true) == [.cancelReconnect, .open(generation: 2)])
        #expect(machine.openFailed(generation: 2) == [], "the user's attempt fails to the user")
        #expect(machine.state == .idle)
    }

    @Test("a socket lost mid-step fails that step when its owner reports back, even if the step's answer came first")
    func lostMidStep() {
        var opening = Machine()
        _ = opening.connectRequested(reconnect: true)
        #expect(opening.lost(generation: 1) == [], "the open under way decides")
        #expect(opening.opened(generation: 1) == [.close], "a hello answered just before the close does not make a login")
        #expect(opening.state == .idle)

        var loggingIn = Self.ready()
        _ = loggingIn.lost(generation: 1)
        _ = loggingIn.reconnectTimerFired()
        _ = loggingIn.opened(generation: 2)
        #expect(loggingIn.lost(generation: 2) == [])
        #expect(loggingIn.loginFailed(generation: 2, .socketGone) == [.close, .scheduleReconnect(attempt: 1)])

        var loginRaced = Machine()
        _ = loginRaced.connectRequested(reconnect: false)
        _ = loginRaced.opened(generation: 1)
        _ = loginRaced.lost(generation: 1)
        #expect(loginRaced.loggedIn(generation: 1) == [.close, .open(generation: 2)], "a user's login reopens once")
        _ = loginRaced.opened(generation: 2)
        #expect(loginRaced.loggedIn(generation: 2) == [.setUp], "the fresh socket is not marked lost")

        var settingUp = Self.ready()
        _ = settingUp.lost(generation: 1)
        _ = settingUp.reconnectTimerFired()
        _ = settingUp.opened(generation: 2)
        _ = settingUp.loggedIn(generation: 2)
        #expect(settingUp.lost(generation: 2) == [])
        #expect(settingUp.setUp(generation: 2) == [.reportDisconnected, .close, .scheduleReconnect(attempt: 1)],
                "subscribers heard connected during the setup, so they hear of the loss")
        _ = settingUp.reconnectTimerFired()
        _ = settingUp.opened(generation: 3)
        _ = settingUp.loggedIn(generation: 3)
        _ = settingUp.lost(generation: 3)
        #expect(settingUp.setupFailed(generation: 3, .transient) == [.reportDisconnected, .close, .scheduleReconnect(attempt: 2)])

        var anonymous = Machine()
        _ = anonymous.anonymousRequested()
        _ = anonymous.opened(generation: 1)
        #expect(anonymous.lost(generation: 1) == [.reportDisconnected])
        #expect(anonymous.state == .idle)
    }

    /// What a random event did to the socket by itself, before any action: ended it (it failed to open, or closed).
    enum Effect { case none, socketEnded, timerFired }

    /// One random event for the property test.
    static func randomEvent(_ machine: inout Machine, _ random: inout SplitMix64) -> (Effect, [Machine.Action]) {
        let generation = Int.random(in: 0...(machine.generation ?? 0) + 1, using: &random)
        let current = generation == machine.generation
        let failure = [Machine.Failure.socketGone, .transient, .signedOut, .disabled][Int.random(in: 0..<4, using: &random)]
        switch Int.random(in: 0..<11, using: &random) {
        case 0: return (.none, machine.connectRequested(reconnect: Bool.random(using: &random)))
        case 1: return (.none, machine.anonymousRequested())
        case 2: return (.none, machine.disconnectRequested())
        case 3: return (.none, machine.opened(generation: generation))
        case 4:
            let opening = if case .opening = machine.state { true } else { false }
            return (current && opening ? .socketEnded : .none, machine.openFailed(generation: generation))
        case 5: return (.none, machine.loggedIn(generation: generation))
        case 6: return (.none, machine.loginFailed(generation: generation, failure))
        case 7: return (.none, machine.setUp(generation: generation))
        case 8: return (.none, machine.setupFailed(generation: generation, failure))
        case 9:
            // Only a connection in use is gone with its socket; during a step the client still holds it, and closes it.
            let inUse = switch machine.state { case .ready, .anonymous: true; default: false }
            return (current && inUse ? .socketEnded : .none, machine.lost(generation: generation))
        default:
            let waiting = if case .waiting = machine.state { true } else { false }
            return (waiting ? .timerFired : .none, machine.reconnectTimerFired())
        }
    }

    @Test("under 20,000 random events: one socket at a time, rising generations, one timer, reconnects only when wanted")
    func randomEvents() {
        var random = SplitMix64(state: 0xC0_11EC7)
        var machine = Machine()
        var highest = 0
        var timerPending = false
        var socket = false
        for step in 0..<20_000 {
            let before = machine.state
            let (effect, actions) = Self.randomEvent(&machine, &random)
            if effect == .socketEnded { socket = false }
            if effect == .timerFired { timerPending = false }
            for action in actions {
                switch action {
                case .open(let generation):
                    #expect(!socket, "step \(step): a second socket opened while \(before)")
                    #expect(generation > highest, "step \(step): generation \(generation) is not new")
                    highest = generation
                    socket = true
                case .close:
                    #expect(socket, "step \(step): closing without a socket while \(before)")
                    socket = false
                case .scheduleReconnect:
                    #expect(machine.reconnects, "step \(step): a reconnect nobody wanted")
                    #expect(!timerPending, "step \(step): two timers")
                    timerPending = true
                case .cancelReconnect:
                    #expect(timerPending, "step \(step): cancelling no timer")
                    timerPending = false
                case .logIn, .setUp, .reportDisconnected, .reportStopped:
                    break
                }
            }
            let waiting = if case .waiting = machine.state { true } else { false }
            #expect(waiting == timerPending, "step \(step): \(machine.state) with a timer pending: \(timerPending)")
            #expect(socket == (machine.generation != nil), "step \(step): \(machine.state) with socket=\(socket) after \(actions) from \(before)")
            #expect(!machine.isConnected || machine.mayCall("send_message"))
        }
        #expect(highest > 100, "the random walk opened sockets")
    }
}
