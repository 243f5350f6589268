import ParleyVault
import ParleyWire

/// Everything that can go wrong in the client, each with what to do about it.
///
/// Descriptions never carry keys, plaintext, codes or passwords.
public enum ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No connection to the server right now.
    case notConnected
    /// The connection dropped while a request was in flight; whether it took effect is unknown.
    case disconnected
    /// The server did not answer in time.
    case timeout(String)
    /// The server refused the request.
    case server(WireError)
    /// Could not reach the server at all.
    case unreachable(String)
    /// The server's TLS key does not match the pinned one.
    case pinMismatch
    /// TLS is used on one side only, or the server's certificate is not trusted (explained, with what to pass).
    /// Like a pin mismatch it is an answer, not an absence: no other node is tried and nothing waits for it.
    case tlsProblem(String)
    /// The server answered with something the client cannot read.
    case badResponse(String)
    /// The local vault refused (locked, wrong PIN, corrupt, …).
    case vault(VaultError)
    /// No account with this e-mail in this home directory.
    case noAccount(String)
    /// The account exists but registration was not confirmed yet.
    case notConfirmed
    /// The request itself is not acceptable (explained).
    case invalidInput(String)
    /// A message could not be decrypted or authenticated.
    case cannotDecrypt
    /// Local storage failed.
    case storage(String)
    /// Another device rotated the account keys: this device is signed out.
    case signedOut
    /// The contact (named by e-mail or name, never by key) changed their identity key after the user
    /// verified it: nothing is sent to them until the user accepts or verifies the new key.
    case identityKeyChanged(String)
    /// Sending or downloading a file failed (explained).
    case attachment(AttachmentError)
    /// Another process has this account open ("pid command").
    case accountInUse(String)
    /// The server speaks another version of the protocol (docs/API.md §1).
    case protocolMismatch(server: Int)

    /// Whether the server could not be reached (no connection, none possible, or no answer in time), as opposed
    /// to an answer — a refusal, a TLS key that does not match its pin — that must not be worked around. What can
    /// go on from this device (sending into the outbox, reading the history) goes on after these alone.
    public var isAboutReachingTheServer: Bool {
        switch self {
        case .unreachable, .timeout, .disconnected, .notConnected: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .notConnected: "not connected to the server; check it is running and try again"
        case .disconnected: "the connection dropped before the server answered; try again (sending is idempotent)"
        case .timeout(let method): "the server did not answer '\(method)' in time; check the server and retry"
        // The server's words only: its error code is for programs (`code`), not for the person reading.
        case .server(let error): "the server refused: \(Self.inPersonsWords(error))"
        case .unreachable(let why): "cannot reach the server: \(why)"
        case .tlsProblem(let why): why
        case .pinMismatch: "the server's TLS key does not match the pinned key; someone may be intercepting, or the server's key changed"
        case .badResponse(let why): "the server sent an unreadable answer: \(why)"
        case .vault(.wiped):
            "too many wrong PINs: this account's data on this device was erased. 'parley account login' (an e-mailed code "
                + "and your password) brings back your keys, so contacts reach you with no key change; the message history "
                + "comes back only if another device of yours still has it and you pair with it ('parley account pair')"
        case .vault(let error): "local vault: \(error)"
        case .noAccount(let email): "no account \(email) in this home; register it or pass --home"
        case .notConfirmed: "the account is not confirmed yet; run 'parley account confirm CODE' with the code from the e-mail"
        case .invalidInput(let why): why
        case .cannotDecrypt: "could not decrypt or authenticate a message"
        case .storage(let why): "local storage failed: \(why)"
        case .signedOut:
            // The server's word alone never erases a device (a hostile server could fake it): the person decides.
            "this device is no longer part of the account: it was removed from another device, or the account's keys were rotated there. "
                + "Pair it again with 'parley account pair'; 'parley account logout --yes' erases what it still holds"
        case .identityKeyChanged(let contact):
            "the identity key of \(contact) changed after you verified it, so nothing was sent; compare the new safety number ('parley verify \(contact)') and accept it ('parley verify accept \(contact)')"
        case .attachment(let error): error.description
        case .accountInUse(let holder):
            "this account is open in another parley process (\(holder)); close that one, or use it, then try again"
        case .protocolMismatch(let server):
            "the server speaks Parley protocol \(server) and this client protocol \(WireProtocol.version); "
                + (server > WireProtocol.version ? "update this client" : "ask the server's operator to update it")
        }
    }
}

extension ClientError {
    /// What the person typed, by the wire's field name: a refusal of a field says "the e-mail address", not "field 'email'".
    static let fieldWords = [
        "email": "the e-mail address", "display_name": "the name", "device_name": "the device name", "username": "the username",
        // One of the addresses a conversation is started with (`members[N]`).
        "members": "the address",
        // A device renamed (`rename_device`), a confirmation or invitation code typed in, a reaction chosen, the size of
        // a file sent.
        "name": "the device name", "code": "the code", "invite": "the invitation code", "emoji": "the reaction",
        "size": "the file's size",
        // Numbers the person typed to name something (`parley delete 0`, `devices remove 0`).
        "account_id": "the account number", "conversation_id": "the conversation number", "message_id": "the message number",
        "device_id": "the device number", "route_id": "the route number", "file_id": "the file number",
        "reply_to": "the message replied to",
    ]

    /// The server's message, with a field it names in the wire's words said in the person's.
    static func inPersonsWords(_ error: WireError) -> String {
        guard error.code == .invalidField || error.code == .missingField, error.message.hasPrefix("field '"),
              let end = error.message.dropFirst(7).firstIndex(of: "'"),
              let words = fieldWords[Self.fieldName(String(error.message[error.message.index(error.message.startIndex, offsetBy: 7)..<end]))]
        else { return error.message }
        return words + error.message[error.message.index(after: end)...]
    }

    /// A field's name without a list index (`members[0]` → `members`) or the object it sits in (`fields.username.value`
    /// → `username`); any other name as it is.
    static func fieldName(_ path: String) -> String {
        let parts = path.split(separator: ".").filter { $0 != "value" && $0 != "visibility" }
        if parts.count > 1, let last = parts.last { return fieldName(String(last)) }
        guard path.hasSuffix("]"), let open = path.firstIndex(of: "["),
              !path[path.index(after: open)..<path.index(before: path.endIndex)].isEmpty,
              path[path.index(after: open)..<path.index(before: path.endIndex)].allSatisfy(\.isNumber)
        else { return path }
        return String(path[..<open])
    }
}
