import Foundation
import Logging
import ParleyWire

/// The account's side of its connection: what the user asks (connect, disconnect, check), and what the
/// connection asks of the account (`ConnectionOwner`: the login, the set-up after it, notifications).
extension ParleyClient: ConnectionOwner {
    /// Connects, logs in, tops up keys, sends what waits in the outbox and catches up on messages.
    /// When `reconnect` is set, a lost connection is retried with backoff (1 s → 30 s) until `disconnect()`.
    /// With `catchUp` false the first sync is left to the caller (who wants what `sync()` returns).
    public func connect(reconnect: Bool = true, catchUp: Bool = true) async throws(ClientError) {
        let (account, _) = try identity()
        await connection.name(account: account)
        try await connection.connect(reconnect: reconnect, catchUp: catchUp)
    }

    /// Closes the connection and stops reconnecting.
    public func disconnect() async {
        await connection.close()
    }

    /// Checks the connection answers (after a resume); reconnects if it does not.
    public func healthCheck() async -> Bool {
        await connection.healthCheck()
    }

    /// The node the client is connected to, or last was.
    public var currentNode: ServerEndpoint {
        get async { await connection.currentNode }
    }

    /// Whether the client is connected and logged in.
    public var isConnected: Bool {
        get async { await connection.isConnected }
    }

    /// After login: keys, own devices, the outbox, (with `catchUp`) the messages and marks missed, and the titles
    /// owed to members who joined meanwhile.
    func setUp(catchUp: Bool) async throws(ClientError) {
        try pruning.runIfDue()
        try await preKeys.upkeep()
        try await owner.refreshOwnDevices()
        // Before the outbox goes out: a contact's key that changed meanwhile is learnt (and, if verified, holds it).
        do {
            try await identityCatchUp.run()
        } catch {
            switch error {
            case .notConnected, .disconnected, .timeout: throw error
            default: logger.debug("could not check contacts' keys", metadata: ["error": "\(error)"])
            }
        }
        broadcaster.yield(.connection(.connected))
        try await outgoing.flush()
        if catchUp {
            try await owner.sync()
            try await messageActions.refreshStates()
        }
        // Members who joined while this device was away learn the group's title now, from its creator or from a
        // member chosen to pass it on (docs/CLIENT.md §8.1) — also on a connect whose caller syncs itself (`read`).
        // A title that cannot go out now (a newcomer without keys on the server) waits for the next connect; it
        // does not keep the person from their messages. A group this account took over from a creator who left
        // (API.md §5) has its title signed again first, so the members pass on a proof its new creator made.
        do {
            try await conversationBook.refreshUnlessPaced()
            try await groupTitles.signAgain(takenOverOnly: true)
        } catch {
            try Self.endIfDisconnected(error, logger)
        }
        do {
            try await groupTitles.shareWithNewMembers()
        } catch {
            try Self.endIfDisconnected(error, logger)
        }
    }

    /// Rethrows a lost connection; anything else a best-effort step after a connect met is logged.
    private static func endIfDisconnected(_ error: ClientError, _ logger: Logger) throws(ClientError) {
        switch error {
        case .notConnected, .disconnected, .timeout: throw error
        default: logger.debug("could not share group titles", metadata: ["error": "\(error)"])
        }
    }

    /// Logs the open connection in with the auth key's signature over the server's nonce.
    func logIn() async throws(ClientError) {
        let (_, device) = try identity()
        let nonce = try await call(API.LoginStart.self, .init(email: email, deviceID: device)).nonce
        let message = LoginChallenge.message(nonce: nonce, email: email, deviceID: device)
        let signature: Data
        do { signature = try keys.authKey.signature(for: message) } catch { throw .storage("cannot sign the login") }
        do {
            // New messages' envelopes in their notifications (docs/API.md §6.1): no fetch before reading them.
            _ = try await call(API.LoginFinish.self, .init(
                email: email, deviceID: device, nonce: nonce, signature: Array(signature), pushEnvelopes: true))
        } catch .server(let error) where error.code == .authenticationFailed && error.details["retry_after"] == nil {
            // Our auth key is no longer the account's: another device rotated the keys (or removed this
            // device). A lockout (`retry_after`) is only a pause: the reconnect loop tries again later.
            // (The connection's lifecycle stops for good and tells subscribers; so it does for `forbidden`, a
            // disabled account, where retrying cannot help until the operator enables it.)
            throw .signedOut
        }
    }
}
