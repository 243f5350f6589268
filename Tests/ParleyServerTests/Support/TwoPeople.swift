import Foundation
import ParleyServer

/// Ann and Bob, registered and logged in on their own connections.
struct TwoPeople {
    let server: TestServer
    let ann: TestAccount
    let bob: TestAccount
    let annSocket: LineSocket
    let bobSocket: LineSocket
    let annID: Int
    let bobID: Int

    static func start(backend: StoreBackend = .sqlite, _ adjust: (inout ServerConfiguration) -> Void = { _ in }) async throws -> TwoPeople {
        let server = try await TestServer.start(backend: backend, adjust)
        let ann = TestAccount("ann@example.org")
        let bob = TestAccount("bob@example.org")
        let annSocket = try server.connect()
        let bobSocket = try server.connect()
        try await server.createAccount(ann, on: annSocket)
        try await server.createAccount(bob, on: bobSocket)
        let annLogin = try await server.login(ann, on: annSocket)
        let bobLogin = try await server.login(bob, on: bobSocket)
        return TwoPeople(
            server: server, ann: ann, bob: bob, annSocket: annSocket, bobSocket: bobSocket,
            annID: annLogin["account_id"] as! Int, bobID: bobLogin["account_id"] as! Int)
    }

    /// A direct conversation between Ann and Bob, created by Ann.
    /// Ann starts the direct conversation with Bob; unless `accepted` is false, Bob accepts her message request,
    /// so they are contacts (presence, profile, read marks).
    func directConversation(accepted: Bool = true) async throws -> Int {
        let response = try await annSocket.call("create_conversation", ["kind": "direct", "members": [bob.email]])
        guard let id = response["conversation_id"] as? Int else { throw LineSocket.Failure(description: "\(response)") }
        if accepted, response["created"] as? Bool == true {
            // Not owed (they are contacts already, through a group) is as good as accepted.
            let answer = try await bobSocket.call("accept_request", ["conversation_id": id])
            guard answer.ok || answer.errorCode == "not_found" else { throw LineSocket.Failure(description: "\(answer)") }
        }
        return id
    }

    /// Carol, registered and logged in on her own connection, and a group of the three that Ann created and Bob
    /// and Carol joined.
    func groupWithCarol() async throws -> (carol: TestAccount, socket: LineSocket, id: Int, group: Int) {
        let carol = TestAccount("carol@example.org")
        let socket = try server.connect()
        try await server.createAccount(carol, on: socket)
        guard let id = try await server.login(carol, on: socket)["account_id"] as? Int else { throw LineSocket.Failure(description: "carol's login") }
        let created = try await annSocket.call("create_conversation", ["kind": "group", "members": [bob.email, carol.email]])
        guard let group = created["conversation_id"] as? Int else { throw LineSocket.Failure(description: "\(created)") }
        for joiner in [bobSocket, socket] {
            let joined = try await joiner.call("accept_invitation", ["conversation_id": group])
            guard joined.ok else { throw LineSocket.Failure(description: "\(joined)") }
        }
        return (carol, socket, id, group)
    }

    /// The envelopes Ann must send in a direct conversation: Bob's device 1 (she has no other device).
    func envelopesFromAnn(_ text: String) -> [[String: Any]] {
        [["account_id": bobID, "device_id": 1, "ciphertext": Data("to-bob:\(text)".utf8).base64EncodedString()]]
    }
}
