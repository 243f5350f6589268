import Foundation

/// An open account that may be offline (docs/CLIENT.md §6): connected, or working from this device's copy.
/// Text sent while connected goes out at once; offline, it waits in the outbox of a conversation this device
/// already knows.
public struct OfflineSession: Sendable {
    /// Where the text goes.
    public enum Target: Sendable, Equatable {
        /// The direct conversation with this e-mail (started when it does not exist and the server answers).
        case person(String)
        /// A conversation by id.
        case conversation(Int64)
    }

    /// The open account.
    public let client: ParleyClient
    /// Why the server cannot be reached; nil when connected.
    public let offline: String?

    /// A session over `client`, connected or not as `offline` says.
    public init(client: ParleyClient, offline: String?) {
        self.client = client
        self.offline = offline
    }

    /// Connects `client` (catching up first when `catchUp`); when the server cannot be reached the session works
    /// from this device's copy, with nothing retrying in the background. Any other failure is thrown.
    public static func open(_ client: ParleyClient, catchUp: Bool = true) async throws(ClientError) -> OfflineSession {
        let offline = try await ServerReach.connect(client, reconnect: false, catchUp: catchUp)
        if offline != nil { await client.disconnect() }
        return OfflineSession(client: client, offline: offline)
    }

    /// The conversation `target` names: started at the server when connected, else one this device knows.
    public func conversation(for target: Target) async throws(OfflineSendError) -> Int64 {
        let email: String
        switch target {
        case .conversation(let id): return id
        case .person(let person): email = person
        }
        do throws(ClientError) {
            if offline == nil { return try await client.startConversation(with: email).id }
            if let known = try await Self.directConversation(with: email, client: client) { return known }
        } catch {
            throw .client(error)
        }
        throw .noConversationOffline(email: email)
    }

    /// Sends `text` to `target`, replying to `replyTo` when given: sent, or queued in the outbox.
    public func send(_ text: String, to target: Target, replyTo: Int64? = nil) async throws(OfflineSendError) -> SendOutcome {
        do throws(ClientError) { try Outgoing.refuseBlank(text) } catch { throw .client(error) }
        let id = try await conversation(for: target)
        // A reply names a message of the same conversation that this device has (and so shows): said here in
        // words, where the server would answer in its field's name.
        if let replyTo {
            let original = try? client.history.message(replyTo)
            guard original?.conversationID == id else {
                throw .client(.invalidInput("message \(replyTo) is not one of conversation \(id) on this device, so there is nothing there to reply to"))
            }
        }
        do { return try await client.send(text, to: id, replyTo: replyTo) } catch { throw .client(error) }
    }

    /// The direct conversation with `email` this device already knows, found without the server.
    public static func directConversation(with email: String, client: ParleyClient) async throws(ClientError) -> Int64? {
        let email = email.lowercased()
        let contacts = try client.profiles.contacts()
        guard let contact = contacts.first(where: { $0.contact.email?.lowercased() == email })?.contact else { return nil }
        return try await client.conversations().first { $0.kind == "direct" && $0.members.contains(contact.accountID) }?.id
    }
}

/// Why text was neither sent nor queued.
public enum OfflineSendError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Offline, and this device has no conversation with the person yet: starting one needs the server.
    case noConversationOffline(email: String)
    /// The client refused (explained).
    case client(ClientError)

    /// What went wrong, in the user's words.
    public var description: String {
        switch self {
        case .noConversationOffline(let email):
            "nothing was queued: this device has no conversation with \(email) yet, and starting one needs the server; try again when it is reachable"
        case .client(let error):
            error.description
        }
    }
}
