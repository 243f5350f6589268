@testable import ParleyClient
import ParleyWire
import Synchronization

/// A server that answers only `list_conversations`, with whatever list the test sets: enough to drive the
/// conversation book alone. The real server lists conversations in GroupTests and the CLI's tests.
final class ListingServer: ServerCalling {
    let listed = Mutex<[API.ConversationSummary]>([])

    func call<M: APIMethod>(_ method: M.Type, _ request: M.Request) async throws(ClientError) -> M.Response {
        guard M.self == API.ListConversations.self else { throw .server(WireError(.unknownMethod, M.name)) }
        return API.ListConversations.Response(conversations: listed.withLock { $0 }) as! M.Response
    }

    func awaitConnection(until deadline: ContinuousClock.Instant) async throws(ClientError) {}
}
