import Foundation
import ParleyWire

/// What the server's notices ask of the sessions (`ServerNotices` acts on everything else).
extension ParleyClient {
    /// A group lost a member: a new sender-key chain before anything more is sent, and the conversation read again.
    func groupShrank(_ conversationID: Int64) async throws(ClientError) {
        try rekeyGroup(conversationID)
        try settleConversations(try await conversationBook.fetchUpdate(of: conversationID))
    }

    /// Fresh sessions with each of `account`'s devices from their current bundles (the old ones archived).
    func renewSessions(with account: Int64) async throws(ClientError) {
        let answer = try await call(API.GetKeyBundle.self, .init(accountID: account))
        try startSessions(from: answer, account: account, renewing: Set(answer.devices.map(\.deviceID)))
    }
}
