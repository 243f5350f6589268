import Foundation
import NIOCore
import ParleyWire
import Synchronization

/// What the account's connection asks of the account it serves: the login (only the account holds the key that
/// signs the server's nonce) and the set-up after it.
protocol ConnectionOwner: AnyObject, Sendable {
    /// Logs the open connection in; `signedOut` when the server no longer knows this device's key.
    func logIn() async throws(ClientError)
    /// After login: keys, own devices, the outbox, and (with `catchUp`) what was missed.
    func setUp(catchUp: Bool) async throws(ClientError)
}

/// Where the server's notifications go, one at a time in arrival order.
typealias NoticeHandler = @Sendable (_ name: String, _ fields: [String: JSONValue]) async -> Void

/// The account's one connection to its server: opening it on one of the server's nodes, logging in, setting up,
/// reconnecting with backoff, and typed calls on it. `ConnectionStateMachine` decides; this actor carries out what
/// it decides (docs/CLIENT.md §2). It reaches its owner weakly, so it never keeps the account open.
actor AccountConnection: ServerCalling {
    private let owner = Mutex<OwnerReference>(OwnerReference())
    let events: EventBroadcaster<ClientEvent>
    let group: any EventLoopGroup
    /// How long to wait before each reconnect attempt.
    let policy: ReconnectPolicy
    /// The server's addresses; `setServer` changes them for the next connect.
    private(set) var server: ServerAddress
    /// The open socket, while there is one.
    var connection: WireConnection?
    /// Where the connection stands, and what to do when something happens to it.
    var lifecycle = ConnectionStateMachine()
    /// Which of the server's nodes to try first: the one that answered last.
    var nodeIndex = 0
    /// The wait before the next reconnect attempt, while there is one.
    var reconnectTimer: Task<Void, Never>?
    /// The account id an `accountDisabled` event names.
    private(set) var accountID: Int64 = 0

    init(server: ServerAddress, group: any EventLoopGroup, policy: ReconnectPolicy, events: EventBroadcaster<ClientEvent>) {
        self.server = server
        self.group = group
        self.policy = policy
        self.events = events
    }

    private struct OwnerReference {
        weak var owner: (any ConnectionOwner)?
        var notices: NoticeHandler = { _, _ in }
    }

    /// Points the connection at the account it serves (once the account is fully made) and at where the server's
    /// notifications go.
    nonisolated func attach(_ target: any ConnectionOwner, notices: @escaping NoticeHandler) {
        owner.withLock { $0 = OwnerReference(owner: target, notices: notices) }
    }

    /// Where notifications go.
    var noticeHandler: NoticeHandler { owner.withLock { $0.notices } }

    /// The account, or `notConnected` once it is gone.
    func reachedOwner() throws(ClientError) -> any ConnectionOwner {
        guard let target = owner.withLock({ $0.owner }) else { throw .notConnected }
        return target
    }

    /// Names the account an `accountDisabled` event is about.
    func name(account: Int64) {
        accountID = account
    }

    /// Whether the connection is open and logged in.
    var isConnected: Bool { lifecycle.isConnected && connection?.isOpen == true }

    /// The node the client is connected to, or last was.
    var currentNode: ServerEndpoint { server.endpoints[nodeIndex % server.endpoints.count] }

    /// Other addresses of the same server, for the next connect; the current connection is left alone.
    func setServer(_ address: ServerAddress) {
        server = address
        nodeIndex = 0
    }

    /// Sends one typed request on the live connection and reads its typed answer.
    func call<M: APIMethod>(_ method: M.Type, _ request: M.Request) async throws(ClientError) -> M.Response {
        // A fresh connection is not ours until the login on it finished: a send that slipped in between
        // would be refused as unauthenticated (and must wait in the outbox instead).
        guard let connection, connection.isOpen, lifecycle.mayCall(M.name) else { throw .notConnected }
        return try await connection.call(method, request)
    }

    /// Returns once connected; throws `notConnected` when reconnecting is off or the deadline passes.
    func awaitConnection(until deadline: ContinuousClock.Instant) async throws(ClientError) {
        while !isConnected {
            guard lifecycle.reconnects, ContinuousClock.now < deadline else { throw .notConnected }
            // A socket that died without saying so yet (a request timed out on it): count it lost now.
            if let generation = lifecycle.generation, case .ready = lifecycle.state, connection?.isOpen != true {
                await socketClosed(generation: generation)
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Connects and logs in (see `ParleyClient.connect`); waits for an attempt already under way and reports its
    /// outcome, so a device removed or signed out meanwhile hears it here instead of a success that never happened.
    func connect(reconnect: Bool, catchUp: Bool) async throws(ClientError) {
        let actions = lifecycle.connectRequested(reconnect: reconnect)
        guard actions.isEmpty, lifecycle.attemptUnderWay else {
            return try await carryOut(actions, catchUp: catchUp)
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while lifecycle.attemptUnderWay, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        switch lifecycle.state {
        case .ready: return
        case .stopped(.signedOut): throw .signedOut
        case .stopped(.disabled): throw .server(WireError(.forbidden, "this account is disabled; ask the server's operator"))
        default: throw .notConnected
        }
    }

    /// Opens a socket without logging in (registration, adding a device), unless one is open.
    func openAnonymous() async throws(ClientError) {
        try await carryOut(lifecycle.anonymousRequested())
    }

    /// Closes whatever connection there is and stops reconnecting.
    func close() async {
        try? await carryOut(lifecycle.disconnectRequested())
    }

    /// Checks the connection answers (after a resume); reconnects if it does not.
    func healthCheck() async -> Bool {
        do {
            _ = try await call(API.Ping.self)
            return true
        } catch {
            guard let generation = lifecycle.generation else { return false }
            // The socket may still look open: close it, and treat it as lost now rather than when it says so.
            let dead = connection
            connection = nil
            await dead?.close()
            try? await carryOut(lifecycle.lost(generation: generation))
            return false
        }
    }

    /// States the protocol version this client speaks (docs/API.md §1). A server that speaks another refuses in
    /// words naming both (`unsupported_protocol`); a server from before `hello` existed speaks version 1.
    static func hello(on connection: WireConnection) async throws(ClientError) {
        let answer: API.Hello.Response
        do {
            answer = try await connection.call(API.Hello.self, .init(protocolVersion: Int64(WireProtocol.version), client: "ParleyClient"))
        } catch .server(let error) where error.code == .unknownMethod {
            return
        }
        let version = answer.protocolVersion
        guard version == Int64(WireProtocol.version) else { throw .protocolMismatch(server: Int(clamping: version)) }
    }

    /// Socket `generation` closed.
    func socketClosed(generation: Int) async {
        guard lifecycle.generation == generation else { return }
        let next = lifecycle.lost(generation: generation)
        if lifecycle.generation == nil { connection = nil }
        try? await carryOut(next)
    }
}
