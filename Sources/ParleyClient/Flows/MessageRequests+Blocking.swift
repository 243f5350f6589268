import Foundation

extension ParleyClient.Person {
    /// A person as someone types them: an account id when the text is a positive number, else an e-mail.
    public init(typed text: String) {
        if let id = Int64(text), id > 0 { self = .account(id) } else { self = .email(text) }
    }
}

extension MessageRequests {
    /// Declines the message request `conversation` by blocking the person who started it; the request, or nil
    /// when there is no such request (nothing is blocked then).
    public func blockStarter(of conversation: Int64) async throws(ClientError) -> MessageRequest? {
        guard let request = try await list().first(where: { $0.conversationID == conversation }) else { return nil }
        try await block(.account(request.accountID))
        return request
    }
}
