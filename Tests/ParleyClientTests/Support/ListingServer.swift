@testable import ParleyClient
import ParleyWire
import Synchronization

/// A server that answers only `list_conversations` and `get_conversation`, from whatever list the test sets: enough
/// to drive the conversation book alone. With `knowsOneConversation` false it is a server from before
/// `get_conversation`. The real server lists conversations in GroupTests and the CLI's tests.
final class ListingServer: ServerCalling {
    let listed = Mutex<[API.ConversationSummary]>([])
    let knowsOneConversation = Mutex(true)
    /// Methods called, in order.
    let calls = Mutex<[String]>([])

    func call<M: APIMethod>(_ method: M.Type, _ request: M.Request) async throws(ClientError) -> M.Response {
        calls.withLock { $0.append(M.name) }
        if M.self == API.ListConversations.self {
            return API.ListConversations.Response(conversations: listed.withLock { $0 }) as! M.Response
        }
        if M.self == API.GetConversation.self, knowsOneConversation.withLock({ $0 }) {
            let id = (request as! API.ConversationRef).conversationID
            guard let one = listed.withLock({ $0.first { $0.conversationID == id } }) else {
                throw .server(WireError(.notFound, "no such conversation, or you are not in it"))
            }
            return one as! M.Response
        }
        throw .server(WireError(.unknownMethod, M.name))
    }

    var isConnected: Bool { get async { true } }

    func awaitConnection(until deadline: ContinuousClock.Instant) async throws(ClientError) {}
}
