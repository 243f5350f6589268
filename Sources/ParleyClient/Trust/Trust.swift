import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// Whom this device trusts (docs/CLIENT.md §9): each contact's identity key as first seen, verified by comparing
/// safety numbers or scanning their code, and a changed key reported, accepted or verified.
public struct Trust: Sendable {
    typealias Dependencies = HasDatabase & HasEvents & HasClock & HasAccount & HasServer & Sendable
    let dependencies: any Dependencies

    private var database: ClientDatabase { dependencies.database }
    var contacts: ContactBook { ContactBook(dependencies: dependencies) }

    /// The trust status of a contact's identity key on this device.
    public func status(of accountID: Int64) throws(ClientError) -> TrustStatus {
        if let record = try record(accountID) { return record.status }
        return try knownIdentityKey(of: accountID) == nil ? .unverified : .trusted
    }

    /// The safety number shared with `email` (fetching their key from the server if this device has none).
    public func safetyNumber(with email: String) async throws(ClientError) -> SafetyNumber {
        try await verification(of: email).safetyNumber
    }

    /// Status, safety number and fingerprints for `email`, learning their key from the server if needed.
    public func verification(of email: String) async throws(ClientError) -> ContactVerification {
        let contact = try await dependencies.account.resolveContact(email)
        guard let key = try currentKey(of: contact) else {
            throw .invalidInput("no identity key is known for \(email) yet; connect to the server and try again")
        }
        let remote = try Self.fingerprint(key, id: email.lowercased())
        let own = try await dependencies.account.ownVerification()
        return ContactVerification(
            accountID: contact, email: email.lowercased(), status: try status(of: contact),
            sendingBlocked: try record(contact)?.sendingBlocked ?? false, safetyNumber: SafetyNumber(own.fingerprint, remote),
            localFingerprint: own.fingerprint, contactFingerprint: remote, localPayload: own.payload)
    }

    /// Marks `email`'s current key verified after the user compared safety numbers.
    ///
    /// Pass the number the user compared: if the key changed in the meantime it no longer matches and
    /// nothing is marked. A pending changed key is accepted and verified in one step.
    @discardableResult
    public func markVerified(_ email: String, comparedNumber: SafetyNumber? = nil) async throws(ClientError) -> ContactVerification {
        let shown = try await verification(of: email)
        if let comparedNumber, comparedNumber != shown.safetyNumber {
            throw .invalidInput("the safety number with \(email) changed since it was shown; compare the new one")
        }
        guard let key = try currentKey(of: shown.accountID) else { throw .invalidInput("no identity key is known for \(email)") }
        try await pin(key, of: shown.accountID)
        return try await verification(of: email)
    }

    /// Marks a contact verified from a scanned QR code (its raw bytes), when the code's key is the one
    /// this device holds for that person; otherwise nothing changes and the error says why.
    @discardableResult
    public func verify(scannedPayload bytes: [UInt8]) async throws(ClientError) -> ContactVerification {
        let payload: VerificationPayload
        do { payload = try VerificationPayload(scanned: bytes) } catch { throw .invalidInput("\(error)") }
        guard payload.accountID.lowercased() != dependencies.email else {
            throw .invalidInput("this is your own verification code; scan the code your contact shows")
        }
        let shown = try await verification(of: payload.accountID)
        // Identity keys are public: a plain comparison leaks nothing.
        guard let key = try currentKey(of: shown.accountID), key == payload.identityKey else {
            throw .invalidInput("""
                the scanned code does not match the identity key this device has for \(shown.email); nothing was changed. \
                Ask them to show 'parley verify \(dependencies.email) --qr' again; if it still differs, someone may be impersonating them
                """)
        }
        try await pin(key, of: shown.accountID)
        return try await verification(of: payload.accountID)
    }

    /// Accepts `email`'s changed identity key without verifying it: the contact becomes `trusted`,
    /// sending is unblocked and messages held since the change are decrypted.
    @discardableResult
    public func acceptIdentityChange(of email: String) async throws(ClientError) -> TrustStatus {
        let contact = try await dependencies.account.resolveContact(email)
        guard var record = try record(contact), record.status == .unverified, record.previousKey != nil || record.sendingBlocked else {
            throw .invalidInput("the identity key of \(email) has not changed; there is nothing to accept")
        }
        let pending = record.pendingKey
        // The warning said messages are held until this: what follows it in each conversation says they no longer are,
        // so a warning read after the accept does not read as still true.
        let accepted = "You accepted the new identity key of \(try contacts.name(contact)): messages to and from them are no longer held."
        let notice = record.sendingBlocked
            ? try conversations(with: contact).map {
                MessageHistory.LocalEntry(conversationID: $0, senderID: contact, kind: Message.keyChangeKind, text: accepted)
            }
            : []
        record = TrustRecord(status: .trusted, previousKey: record.previousKey, pendingKey: nil)
        let encoded = Array(try! JSONEncoder().encode(record))
        let now = dependencies.clock.now()
        let entries: [Message] = try database.write { writer in
            try writer.delete(Namespace.verified, String(contact))
            // The registry takes the new key now, so the session that follows is not reported a second time.
            if let pending { try writer.put(Namespace.identity, String(contact), pending) }
            try writer.put(Namespace.trust, String(contact), encoded)
            return try MessageHistory.storeLocal(notice, at: now, in: writer)
        }
        for entry in entries { dependencies.events.yield(.message(entry)) }
        dependencies.events.yield(.trustChanged(accountID: contact, status: .trusted))
        try await dependencies.account.trustSettled(for: contact)
        return .trusted
    }

    /// Verifies `key` for `contact`: pinned (a later change blocks sending), registry updated, held
    /// messages released.
    private func pin(_ key: [UInt8], of contact: Int64) async throws(ClientError) {
        let record = Array(try! JSONEncoder().encode(TrustRecord(status: .verified, previousKey: nil, pendingKey: nil)))
        try database.write { writer in
            try writer.put(Namespace.verified, String(contact), key)
            try writer.put(Namespace.identity, String(contact), key)
            try writer.put(Namespace.trust, String(contact), record)
        }
        dependencies.events.yield(.trustChanged(accountID: contact, status: .verified))
        try await dependencies.account.trustSettled(for: contact)
    }

    /// What this device records about a contact's key, if anything.
    func record(_ accountID: Int64) throws(ClientError) -> TrustRecord? {
        try database.read { try $0.get(Namespace.trust, String(accountID)) }
            .flatMap { try? JSONDecoder().decode(TrustRecord.self, from: Data($0)) }
    }

    /// The identity key the sessions' registry holds for a contact.
    func knownIdentityKey(of accountID: Int64) throws(ClientError) -> [UInt8]? {
        try database.read { try $0.get(Namespace.identity, String(accountID)) }
    }

    /// The key verification is about: a pending changed key, else the registry's.
    func currentKey(of accountID: Int64) throws(ClientError) -> [UInt8]? {
        if let pending = try record(accountID)?.pendingKey { return pending }
        return try knownIdentityKey(of: accountID)
    }

    /// A contact's fingerprint: `key` with their e-mail, or `badResponse` for a key that is no public key.
    static func fingerprint(_ key: [UInt8], id: String) throws(ClientError) -> Fingerprint {
        guard let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: key),
              let fingerprint = try? Fingerprint(identityKey: publicKey, id: id)
        else { throw .badResponse("the contact's identity key is not a valid public key") }
        return fingerprint
    }
}
