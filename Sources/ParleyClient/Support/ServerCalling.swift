import Synchronization
import ParleyWire

/// A component's way to the server: typed calls on the account's one connection, whose lifecycle (login,
/// reconnects) stays with the client that owns it.
protocol ServerCalling: Sendable {
    /// Sends one typed request and reads its typed answer; `notConnected` without a logged-in connection.
    func call<M: APIMethod>(_ method: M.Type, _ request: M.Request) async throws(ClientError) -> M.Response
    /// Returns once connected and logged in; throws `notConnected` when reconnecting is off or `deadline` passes.
    func awaitConnection(until deadline: ContinuousClock.Instant) async throws(ClientError)
}

/// The `ServerCalling` the client's components hold: it reaches the client weakly, so a component never keeps
/// the account (and its process lock) alive; before `attach` or after the client is gone, calls fail
/// `notConnected`.
final class ServerLink: ServerCalling {
    private let client = Mutex<Reference?>(nil)

    private struct Reference { weak var client: ParleyClient? }

    /// A link that reaches nothing until `attach`.
    init() {}

    /// Points the link at its client (once the client is fully made).
    func attach(_ target: ParleyClient) {
        client.withLock { $0 = Reference(client: target) }
    }

    private var target: ParleyClient? { client.withLock { $0?.client } }

    func call<M: APIMethod>(_ method: M.Type, _ request: M.Request) async throws(ClientError) -> M.Response {
        guard let target else { throw .notConnected }
        return try await target.call(method, request)
    }

    func awaitConnection(until deadline: ContinuousClock.Instant) async throws(ClientError) {
        guard let target else { throw .notConnected }
        try await target.awaitConnection(until: deadline)
    }
}

extension ServerCalling {
    /// The socket is back but the login on it is still under way: waits a moment, or throws `notConnected` once
    /// `deadline` has passed.
    func pauseForLogin(until deadline: ContinuousClock.Instant) async throws(ClientError) {
        guard ContinuousClock.now < deadline else { throw .notConnected }
        try? await Task.sleep(for: .milliseconds(50))
    }
}
