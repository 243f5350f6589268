import Crypto
import Foundation
import ParleyCrypto

/// The account's side of trust: its own fingerprint and code, finding a contact's key (which starts sessions),
/// and what follows once a contact's key is settled (held messages opened, the outbox sent).
extension ParleyClient {
    /// This account's fingerprint: its identity key with its e-mail.
    public nonisolated var fingerprint: Fingerprint {
        let key = try! Curve25519.Signing.PublicKey(rawRepresentation: keyBook.current.identity.publicKey)
        return try! Fingerprint(identityKey: key, id: email)
    }

    /// This account's verification QR payload (its e-mail and identity key) for others to scan.
    public nonisolated var verificationPayload: VerificationPayload {
        try! VerificationPayload(accountID: email, identityKey: keyBook.current.identity.publicKey)
    }

    /// The account id of `email`: from this device's contacts, else asked of the server with the key
    /// bundle (which also starts sessions and records the identity key).
    func resolveContact(_ email: String) async throws(ClientError) -> Int64 {
        let wanted = email.lowercased()
        guard wanted != self.email else { throw .invalidInput("\(email) is your own account; give a contact's e-mail") }
        // The account that has the address now, not one it replaced (`Contact.replacedBy`).
        let named = try contacts.all().filter { $0.email?.lowercased() == wanted }
        let known = named.filter { $0.deleted != true }.min { ($0.replacedBy == nil ? 0 : 1) < ($1.replacedBy == nil ? 0 : 1) }
        if let known, try trust.currentKey(of: known.accountID) != nil { return known.accountID }
        guard await isConnected else {
            throw .invalidInput("\(email) is not among this device's contacts with a known key; connect to the server to look them up")
        }
        let account: Int64
        do {
            account = try await owner.fetchBundles(email: wanted)
        } catch .server(let refusal) where refusal.code == .notFound {
            if try contacts.deletedAccountHad(wanted) { throw .invalidInput(ContactBook.deletedAccount(wanted)) }
            throw .invalidInput("\(email) has no Parley account on this server; check the spelling")
        }
        try contacts.remember(Contact(accountID: account, email: wanted, displayName: nil))
        return account
    }

    /// How the user knows a contact, for messages and errors: e-mail, else name, else the account id.
    func contactName(_ accountID: Int64) throws(ClientError) -> String {
        try contacts.name(accountID)
    }

    /// A contact's key was accepted or verified: what they sent meanwhile is opened, and what waited to go to
    /// them is sent.
    func trustSettled(for contact: Int64) async throws(ClientError) {
        try await owner.releaseHeldMessages(from: contact)
        if await isConnected { try? await outgoing.flush() }
    }
}
