import Crypto
import Foundation
import ParleyCrypto
import ParleyProtocol
import ParleyVault
import ParleyWire

extension ParleyClient {
    /// Sends `register`: identity, login key, prekeys and the password envelope of the keys.
    /// Solves the server's proof of work when it asks for one. A code arrives by e-mail next.
    public func register(
        password: String, invite: String? = nil, envelopeIterations: UInt32 = KeyEnvelope.defaultIterations
    ) async throws(ClientError) {
        guard !keys.isConfirmed else { throw .invalidInput("\(email) is registered already") }
        guard password.count >= 8 else { throw .invalidInput("the password must have at least 8 characters") }
        let envelope: KeyEnvelope
        do {
            envelope = try KeyEnvelope.seal(keys.envelopeSecret, password: password, iterations: envelopeIterations)
        } catch {
            throw .invalidInput("cannot protect the keys with this password: \(error)")
        }
        let request = API.Register.Request(
            email: email, displayName: keys.displayName, identityKey: keys.identity.publicKey,
            authKey: Array(keys.authKey.publicKey.rawRepresentation), keyEnvelope: envelope.bytes, deviceName: keys.deviceName,
            preKeys: try freshPreKeys(includeOneTime: true), invite: invite)
        try await withTemporaryConnection { () async throws(ClientError) in try await self.sendRegistration(request) }
        try database.write { try $0.put(Namespace.account, "envelope", envelope.bytes) }
    }

    private func sendRegistration(_ request: API.Register.Request) async throws(ClientError) {
        var request = request
        do {
            _ = try await call(API.Register.self, request)
        } catch .server(let error) where error.code == .proofOfWorkRequired {
            guard case .string(let text)? = error.details["pow_challenge"], let challenge = Data(base64Encoded: text),
                  case .number(let difficulty)? = error.details["pow_difficulty"]
            else { throw .badResponse("proof of work asked for without a challenge") }
            let nonce: UInt64
            do { nonce = try ProofOfWork.solve(challenge: challenge, difficulty: Int(difficulty)) } catch {
                throw .badResponse("unsolvable proof of work")
            }
            request.proofOfWork = API.ProofOfWorkAnswer(challenge: Array(challenge), nonce: nonce)
            _ = try await call(API.Register.self, request)
        }
    }

    /// Deletes this device's copy of an account whose registration never went through, so registering the
    /// same e-mail in the same home can simply be run again. The server replaces a pending registration
    /// when the address registers again, so nothing is left waiting for the discarded keys.
    public func discardUnconfirmed() throws(ClientError) {
        guard !keys.isConfirmed else { throw .invalidInput("\(email) is a confirmed account; it is kept") }
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            throw .storage("cannot remove the unfinished account in \(directory.path): \(error.localizedDescription)")
        }
    }

    /// Confirms registration with the e-mailed code; the device gets its ids.
    public func confirm(code: String) async throws(ClientError) {
        let answer = try await withTemporaryConnection { () async throws(ClientError) in
            try await self.call(API.RegisterConfirm.self, .init(email: self.email, code: code))
        }
        keys.accountID = answer.accountID
        keys.deviceID = answer.deviceID
        try saveKeys()
    }

    /// The prekeys of `register` / `rotate_keys` / `add_device` / `ensure_prekeys`: a new signed and PQ prekey, and
    /// optionally a batch of one-time prekeys. The private halves are stored before anything is sent.
    func freshPreKeys(includeOneTime: Bool) throws(ClientError) -> API.PreKeys {
        let now = UInt64(dependencies.clock.now() / 1000)
        let identity = keys.identity
        let random = dependencies.random
        let signed = SignedPreKeyRecord.generate(id: keys.nextSignedPreKeyID, identity: identity, now: now, random: random)
        let pq = PQPreKeyRecord.generate(id: keys.nextSignedPreKeyID, identity: identity, now: now, random: random)
        let oneTime = includeOneTime ? PreKeyPolicy.oneTimePreKeys(firstId: keys.nextPreKeyID, random: random) : []
        keys.nextSignedPreKeyID &+= 1
        if let last = oneTime.last { keys.nextPreKeyID = last.id &+ 1 }
        let store = sessions.store, updated = keys.encoded()
        try database.write { writer in
            try store.storeSignedPreKey(signed)
            try store.storePQPreKey(pq)
            for record in oneTime { try store.storePreKey(record) }
            try writer.put(Namespace.account, "keys", updated)
        }
        return API.PreKeys(
            signed: API.SignedPreKey(id: signed.id, publicKey: signed.keyPair.publicKey, signature: signed.signature),
            pq: API.SignedPreKey(id: pq.id, publicKey: pq.publicKey, signature: pq.signature),
            oneTime: oneTime.map { API.OneTimePreKey(id: $0.id, key: $0.keyPair.publicKey) })
    }

    /// Changes the account password: a new envelope of the same keys, stored here and on the server.
    public func changePassword(to password: String, iterations: UInt32 = KeyEnvelope.defaultIterations) async throws(ClientError) {
        guard password.count >= 8 else { throw .invalidInput("the password must have at least 8 characters") }
        let envelope: KeyEnvelope
        do { envelope = try KeyEnvelope.seal(keys.envelopeSecret, password: password, iterations: iterations) } catch {
            throw .invalidInput("cannot protect the keys with this password: \(error)")
        }
        _ = try await call(API.ChangePassword.self, .init(keyEnvelope: envelope.bytes))
        try database.write { try $0.put(Namespace.account, "envelope", envelope.bytes) }
    }

    /// Whether `password` opens the stored key envelope (checks a password without the server).
    public func checkPassword(_ password: String) throws(ClientError) -> Bool {
        guard let bytes = try database.read({ try $0.get(Namespace.account, "envelope") }) else { return false }
        guard let secret = try? KeyEnvelope(bytes: bytes).open(password: password) else { return false }
        return ConstantTime.equals(secret, keys.envelopeSecret)
    }
}
