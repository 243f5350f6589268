import ParleyWire

extension APIMethod {
    /// Reads the server's answer to this method, or says which field of it was unreadable.
    static func response(from answer: [String: JSONValue]) throws(ClientError) -> Response {
        do {
            return try Response(from: WireFields(answer))
        } catch {
            throw .badResponse("the answer to \(name): \(error.message)")
        }
    }
}

extension WireConnection {
    /// Sends one typed request on this bare connection (no login needed) and reads its typed answer.
    func call<M: APIMethod>(_ method: M.Type, _ request: M.Request) async throws(ClientError) -> M.Response {
        try M.response(from: try await call(M.name, request.fields))
    }
}
