import Foundation
import ParleyCrypto
import ParleyProtocol
import ParleyWire

/// Signing in again after losing every device: an e-mailed code, then the account password (docs/CLIENT.md §8).
///
/// The server gives the password-sealed key envelope only to someone who has the code from the account's
/// mailbox; the password opens it here, and the login key inside proves this new device to the server. What
/// was sent before is not recoverable this way (only another device's history carries it, by pairing).
public enum AccountRecovery {
    /// Asks the server to e-mail a recovery code. The answer is the same whether or not `email` has an
    /// account with a key backup, so no code arriving means there is nothing to recover.
    public static func sendCode(
        email: String, server: ServerAddress, dependencies: any ParleyClient.Dependencies = ClientDependencies()
    ) async throws(ClientError) {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        try await withConnection(server, dependencies) { connection throws(ClientError) in
            _ = try await connection.call(API.RecoveryStart.self, .init(email: email))
        }
    }

    /// Trades `code` for the key envelope, opens it with `password`, creates the account under `home` (vault
    /// protected by `pin`) and adds this machine as a new device. Returns the client, not yet connected.
    /// A wrong password leaves nothing behind, and the code stays good for another try until it expires.
    public static func restore(
        home: URL, email: String, server: ServerAddress, code: String, password: String, pin: String?,
        deviceName: String, dependencies: any ParleyClient.Dependencies = ClientDependencies()
    ) async throws(ClientError) -> ParleyClient {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        guard !AccountHome.accounts(in: home).contains(email) else {
            throw .invalidInput("\(email) already has an account in this home; use it, or pick another --home")
        }
        let answer = try await withConnection(server, dependencies) { connection throws(ClientError) in
            try await connection.call(API.RecoveryFinish.self, .init(email: email, code: code.trimmingCharacters(in: .whitespaces)))
        }
        let accountID = answer.accountID
        let identityKey = answer.identityKey
        let envelope = answer.keyEnvelope
        let secret: [UInt8]
        do throws(KeyEnvelopeError) {
            secret = try KeyEnvelope(bytes: envelope).open(password: password)
        } catch .wrongPassword {
            throw .invalidInput("that is not the account password; try again — the same code stays good for 15 minutes")
        } catch {
            throw .badResponse("the key backup cannot be opened: \(error)")
        }
        guard secret.count == 64 else { throw .badResponse("the key backup holds \(secret.count) bytes, not the two 32-byte keys") }
        let seeds = (identity: Array(secret.prefix(32)), auth: Array(secret.suffix(32)))
        // The backup must hold the account's own identity key, not one a server swapped in.
        guard let identity = try? IdentityKeyPair(seed: seeds.identity), ConstantTime.equals(identity.publicKey, identityKey) else {
            throw .badResponse("the key backup does not match the account's identity key")
        }
        let client = try ParleyClient.create(
            home: home, email: email, displayName: answer.displayName, server: server, pin: pin,
            deviceName: deviceName, seeds: seeds, dependencies: dependencies)
        do {
            _ = try await client.registration.addThisDevice(accountID: accountID, pairID: nil, token: nil)
        } catch {
            // No half-made account stays behind: the next try starts clean.
            try? await client.eraseLocalData()
            throw error
        }
        try await client.rememberEnvelope(envelope)
        return client
    }

    private static func withConnection<T>(
        _ server: ServerAddress, _ dependencies: any ParleyClient.Dependencies,
        _ body: (WireConnection) async throws(ClientError) -> T
    ) async throws(ClientError) -> T {
        let (connection, _) = try await WireConnection.connect(toAnyNodeOf: server, group: dependencies.eventLoopGroup)
        do {
            let result = try await body(connection)
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }
}
