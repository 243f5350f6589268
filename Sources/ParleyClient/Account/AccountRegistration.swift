import Crypto
import Foundation
import ParleyCrypto
import ParleyProtocol
import ParleyVault
import ParleyWire

/// Registering this account or this device (docs/CLIENT.md §1): `register` sends the keys, `confirm` takes the
/// e-mailed code and gives the device its ids, `addThisDevice` joins an existing account; and the password that
/// protects the key backup, changed or checked. Each runs on a connection that is not logged in.
public struct AccountRegistration: Sendable {
    typealias Dependencies = HasDatabase & HasAccountDirectory & HasAccount & Sendable
    let keys: AccountKeyBook
    let preKeys: PreKeyMint
    let connection: AccountConnection
    let dependencies: any Dependencies

    private var email: String { dependencies.email }
    private var database: ClientDatabase { dependencies.database }

    /// Sends `register`: identity, login key, prekeys and the password envelope of the keys.
    /// Solves the server's proof of work when it asks for one. A code arrives by e-mail next.
    public func register(
        password: String, invite: String? = nil, envelopeIterations: UInt32 = KeyEnvelope.defaultIterations
    ) async throws(ClientError) {
        let current = keys.current
        guard !current.isConfirmed else { throw .invalidInput("\(email) is registered already") }
        let envelope = try Self.envelope(of: current, password: password, iterations: envelopeIterations)
        let request = API.Register.Request(
            email: email, displayName: current.displayName, identityKey: current.identity.publicKey,
            authKey: Array(current.authKey.publicKey.rawRepresentation), keyEnvelope: envelope.bytes, deviceName: current.deviceName,
            preKeys: try preKeys.fresh(includeOneTime: true), invite: invite)
        try await anonymously { () async throws(ClientError) in try await sendRegistration(request) }
        try database.write { try $0.put(Namespace.account, "envelope", envelope.bytes) }
    }

    private func sendRegistration(_ request: API.Register.Request) async throws(ClientError) {
        var request = request
        do {
            _ = try await connection.call(API.Register.self, request)
        } catch .server(let error) where error.code == .proofOfWorkRequired {
            guard case .string(let text)? = error.details["pow_challenge"], let challenge = Data(base64Encoded: text),
                  case .number(let difficulty)? = error.details["pow_difficulty"]
            else { throw .badResponse("proof of work asked for without a challenge") }
            let nonce: UInt64
            do { nonce = try ProofOfWork.solve(challenge: challenge, difficulty: Int(difficulty)) } catch {
                throw .badResponse("unsolvable proof of work")
            }
            request.proofOfWork = API.ProofOfWorkAnswer(challenge: Array(challenge), nonce: nonce)
            _ = try await connection.call(API.Register.self, request)
        }
    }

    /// Deletes this device's copy of an account whose registration never went through, so registering the
    /// same e-mail in the same home can simply be run again. The server replaces a pending registration
    /// when the address registers again, so nothing is left waiting for the discarded keys.
    public func discardUnconfirmed() throws(ClientError) {
        guard !keys.current.isConfirmed else { throw .invalidInput("\(email) is a confirmed account; it is kept") }
        let directory = dependencies.directory
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            throw .storage("cannot remove the unfinished account in \(directory.path): \(error.localizedDescription)")
        }
    }

    /// Confirms registration with the e-mailed code; the device gets its ids.
    public func confirm(code: String) async throws(ClientError) {
        let email = self.email
        let answer = try await anonymously { () async throws(ClientError) in
            try await connection.call(API.RegisterConfirm.self, .init(email: email, code: code))
        }
        try keys.change { keys throws(ClientError) in
            keys.accountID = answer.accountID
            keys.deviceID = answer.deviceID
        }
    }

    /// On the new device: asks the server for a device id with fresh prekeys, proving the account's
    /// login key (bound to the pairing, when there is one). Leaves the connection closed; `connect()` logs in.
    ///
    /// The connection is not logged in, so the server closes it after its login timeout. The prekeys (the slow
    /// part) are made before connecting, and a connection that closed before `add_device` went out is
    /// replaced (fresh nonce) up to three times. Once `add_device` was sent, it is never repeated: a lost answer
    /// might mean the device exists, and a second one must not be made.
    func addThisDevice(accountID: Int64, pairID: UInt32?, token: [UInt8]?) async throws(ClientError) -> UInt32 {
        let preKeys = try self.preKeys.fresh(includeOneTime: true)
        let email = self.email, deviceName = keys.current.deviceName, authKey = keys.current.authKey
        var pairing: API.PairingTicket?
        if let pairID, let token { pairing = API.PairingTicket(pairID: pairID, token: token) }
        var attempt = 0
        while true {
            attempt += 1
            var sent = false
            do throws(ClientError) {
                try await connection.openAnonymous()
                let nonce = try await connection.call(API.LoginStart.self, .init(email: email, deviceID: 0)).nonce
                let message = API.AddDevice.signedMessage(nonce: nonce, email: email, name: deviceName)
                let signature: Data
                do { signature = try authKey.signature(for: message) } catch { throw ClientError.storage("cannot sign") }
                let request = API.AddDevice.Request(
                    email: email, name: deviceName, nonce: nonce, signature: Array(signature), pairing: pairing, preKeys: preKeys)
                sent = true
                let answer: API.AddDevice.Response
                do throws(ClientError) {
                    answer = try await connection.call(API.AddDevice.self, request)
                } catch .notConnected {
                    sent = false  // `call` refused before writing anything
                    throw .notConnected
                }
                guard answer.accountID == accountID else { throw ClientError.badResponse("add_device answered for another account") }
                let device = answer.deviceID
                let createdAt = answer.createdAt
                // With its ids, only what was sent to this device from now on is fetched; older history comes from the
                // archive. Both commit together.
                try keys.change { keys throws(ClientError) in
                    keys.accountID = accountID
                    keys.deviceID = device
                } alongside: { writer, _, _ in
                    try writer.put(Namespace.state, "cursor", Array(String(createdAt - 1).utf8))
                }
                await connection.close()
                return device
            } catch {
                await connection.close()
                let dropped = error == .notConnected || error == .disconnected || error == .timeout(API.LoginStart.name)
                guard !sent, dropped, attempt < 3 else { throw error }
            }
        }
    }

    /// Re-wraps the key backup under `new` once `current` opens this device's copy of it: whoever finds the device
    /// unlocked cannot take the password (and with it the account's recovery) without knowing the old one. A device
    /// that holds no copy (one paired from another) cannot check, and says where to change it.
    public func changePassword(from current: String, to new: String, iterations: UInt32 = KeyEnvelope.defaultIterations) async throws(ClientError) {
        guard try database.read({ try $0.get(Namespace.account, "envelope") }) != nil else {
            throw .invalidInput("this device holds no copy of the key backup to check your current password against (it was paired "
                + "from another device); change the password on the device you registered or recovered the account with")
        }
        guard try checkPassword(current) else { throw .invalidInput("the current password is not right; nothing changed") }
        guard current != new else { throw .invalidInput("the new password is the one you have now; nothing changed") }
        try await changePassword(to: new, iterations: iterations)
    }

    /// Changes the account password: a new envelope of the same keys, stored here and on the server (unchecked: the
    /// public way is `changePassword(from:to:)`).
    func changePassword(to password: String, iterations: UInt32 = KeyEnvelope.defaultIterations) async throws(ClientError) {
        let envelope = try Self.envelope(of: keys.current, password: password, iterations: iterations)
        _ = try await connection.call(API.ChangePassword.self, .init(keyEnvelope: envelope.bytes))
        try database.write { try $0.put(Namespace.account, "envelope", envelope.bytes) }
    }

    /// Whether `password` opens the stored key envelope (checks a password without the server).
    public func checkPassword(_ password: String) throws(ClientError) -> Bool {
        guard let bytes = try database.read({ try $0.get(Namespace.account, "envelope") }) else { return false }
        guard let secret = try? KeyEnvelope(bytes: bytes).open(password: password) else { return false }
        return ConstantTime.equals(secret, keys.current.envelopeSecret)
    }

    /// The password envelope (ECP1) of the keys' secrets; a password under 8 characters is refused.
    static func envelope(of keys: AccountKeys, password: String, iterations: UInt32) throws(ClientError) -> KeyEnvelope {
        guard password.count >= 8 else { throw .invalidInput("the password must have at least 8 characters") }
        do {
            return try KeyEnvelope.seal(keys.envelopeSecret, password: password, iterations: iterations)
        } catch {
            throw .invalidInput("cannot protect the keys with this password: \(error)")
        }
    }

    /// Runs `body` on a connection that is not logged in, opened for it when none is open and closed after.
    private func anonymously<T>(_ body: () async throws(ClientError) -> T) async throws(ClientError) -> T {
        let wasOpen = await connection.isConnected
        try await connection.openAnonymous()
        do {
            let result = try await body()
            if !wasOpen { await connection.close() }
            return result
        } catch {
            if !wasOpen { await connection.close() }
            throw error
        }
    }
}
