import ParleyClient

/// A message request as `requests` lists it: who wants to talk, and their latest messages as lines.
public struct RequestPreview: Sendable {
    /// The request.
    public let request: MessageRequest
    /// Its latest messages, one line each (`MessageLine`).
    public let lines: [String]
}

/// The message requests waiting for an answer, each with a preview.
public enum RequestList {
    /// How many of a request's latest messages its preview shows.
    public static let previewLength = 3

    /// Fetches, then every waiting request with its latest messages (marked seen on this device).
    public static func previews(_ client: ParleyClient) async throws(ClientError) -> [RequestPreview] {
        _ = try await client.sync()
        var previews: [RequestPreview] = []
        for request in try await client.requests.list() {
            var lines: [String] = []
            let shown = try client.history.messages(in: request.conversationID, limit: previewLength)
            for message in shown {
                lines.append(await MessageLine.format(message, client: client))
            }
            // Shown now, so not new again once the request is answered (on this device only: the starter sees no
            // read mark before the request is accepted). Older ones the preview left out stay new.
            try client.inbox.markSeen(shown.map(\.id))
            previews.append(RequestPreview(request: request, lines: lines))
        }
        return previews
    }
}
