import ParleyWire

/// Answers one request line of one connection: the account's rate limit, parsing, the new-device allowance, the
/// router, and the connection's seat after a login. Runs in a task of its own, started when the line arrives, so a
/// connection with nothing to answer holds no task at all (`ConnectionHandler`).
struct RequestResponder: Sendable {
    let context: ServerContext
    let router: RequestRouter
    let state: ConnectionState
    let remoteAddress: String
    let budget: ConnectionBudget

    /// The answer to `line` from `caller` (nil before login), and the caller after it (changed by a login).
    /// `connectionAllows` is the connection's own rate limit, taken on its event loop.
    func answer(_ line: [UInt8], caller: Caller?, connectionAllows: Bool) async -> (answer: WireMessage, caller: Caller?) {
        var accountAllows = true
        if let caller { accountAllows = await context.accountLimits.allow(accountID: caller.accountID, now: context.clock.now()) }
        guard connectionAllows, accountAllows else {
            let id = try? WireRequest.parse(line: line).get().requestID
            return (.failure(requestID: id, error: WireError(.rateLimited, "too many requests; slow down and retry")), caller)
        }
        var caller = caller
        let answer = await respond(to: line, caller: &caller)
        return (answer, caller)
    }

    private func respond(to line: [UInt8], caller: inout Caller?) async -> WireMessage {
        switch WireRequest.parse(line: line) {
        case .failure(let failure):
            return .failure(requestID: failure.requestID, error: failure.error)
        case .success(let request):
            // A new device pairing never logs in: its first pairing request moves it to the pairing allowance.
            let pairingNow = caller == nil && state.seat == .stranger && API.newDeviceMethods.contains(request.method)
            if pairingNow {
                if let refusal = budget.move(address: remoteAddress, from: .stranger, to: .pairing) {
                    return .failure(requestID: request.requestID, error: WireError(.rateLimited, refusal.message))
                }
                state.take(.pairing)
            }
            let environment = RequestEnvironment(caller: caller, remoteAddress: remoteAddress)
            let (answer, loggedIn) = await router.handle(request, environment: environment, context: context)
            if pairingNow, case .failure = answer {
                _ = budget.move(address: remoteAddress, from: .pairing, to: .stranger)
                state.take(.stranger)
            }
            if let loggedIn {
                caller = loggedIn
                _ = budget.move(address: remoteAddress, from: state.seat, to: .member)
                state.take(.member)
            }
            return answer
        }
    }

    /// `message` as one line; a fixed internal error where it cannot be encoded.
    static func line(_ message: WireMessage, context: ServerContext) -> [UInt8] {
        do {
            return try message.encodedLine()
        } catch {
            context.logger.error("could not encode a response")
            return Array(#"{"error":{"code":"internal","message":"encoding failed"},"ok":false,"request_id":null,"type":"response"}"#.utf8) + [0x0A]
        }
    }
}
