import Logging
import NIOCore
import ParleyWire

/// Serves one client connection: frames lines, runs requests one at a time, writes answers.
///
/// Requests are handled in order and the next line is read only after the answer was handed to
/// the channel, whose writer suspends while the socket is not writable: a client that sends but
/// never reads stalls only itself, and the server's memory for it stays bounded.
struct ConnectionHandler {
    let context: ServerContext
    let router: RequestRouter
    let state: ConnectionState
    let remoteAddress: String

    func run(inbound: NIOAsyncChannelInboundStream<ByteBuffer>, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        let subscription = Subscription(hub: context.notifications, state: state)
        let context = self.context
        var departed: Caller?
        do {
            try await withThrowingDiscardingTaskGroup { group in
                try await readRequests(inbound: inbound, outbound: outbound) { caller in
                    // After a login, notifications for that device flow through the same writer.
                    let onlineHere = context.notifications.isOnline(accountID: caller.accountID)
                    let stream = subscription.start(caller)
                    group.addTask {
                        for await queued in stream {
                            try await self.write(queued.message, to: outbound)
                            ServerMetrics.notificationLag(.now - queued.raised)
                        }
                    }
                    group.addTask { await Presence.cameOnline(caller, onlineHere: onlineHere, context: context) }
                }
                // Ending the subscription ends the writer task, so the group can finish.
                departed = subscription.cancel()
            }
        } catch {
            if let caller = departed ?? subscription.cancel() { await Presence.wentOffline(caller, context: context) }
            throw error
        }
        if let departed { await Presence.wentOffline(departed, context: context) }
    }

    private func readRequests(
        inbound: NIOAsyncChannelInboundStream<ByteBuffer>, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        onLogin: (Caller) -> Void
    ) async throws {
        var framer = LineFramer(maximumLineLength: context.configuration.maximumLineLength)
        var caller: Caller?
        var limiter = RateLimiter(
            rate: context.configuration.requestsPerSecond, burst: context.configuration.requestsPerSecond * 2,
            now: context.clock.now())
        for try await buffer in inbound {
            for event in framer.feed(buffer.readableBytesView) {
                switch event {
                case .lineTooLong:
                    let error = WireError(.lineTooLong, "a request line may hold at most \(context.configuration.maximumLineLength) bytes; the connection is closed")
                    try await write(.failure(requestID: nil, error: error), to: outbound)
                    return
                case .line(let bytes):
                    guard !bytes.isEmpty else { continue }
                    guard state.beginRequest() else { return }
                    defer { state.endRequest() }
                    let answer: WireMessage
                    let now = context.clock.now()
                    var accountAllows = true
                    if let caller { accountAllows = await context.accountLimits.allow(accountID: caller.accountID, now: now) }
                    if !limiter.allow(now: now) || !accountAllows {
                        let id = try? WireRequest.parse(line: bytes).get().requestID
                        answer = .failure(requestID: id, error: WireError(.rateLimited, "too many requests; slow down and retry"))
                    } else {
                        let before = caller
                        answer = await respond(to: bytes, caller: &caller)
                        if let caller, caller != before { onLogin(caller) }
                    }
                    try await write(answer, to: outbound)
                }
            }
        }
    }

    private func respond(to line: [UInt8], caller: inout Caller?) async -> WireMessage {
        switch WireRequest.parse(line: line) {
        case .failure(let failure):
            return .failure(requestID: failure.requestID, error: failure.error)
        case .success(let request):
            let environment = RequestEnvironment(caller: caller, remoteAddress: remoteAddress)
            let (answer, loggedIn) = await router.handle(request, environment: environment, context: context)
            if let loggedIn {
                caller = loggedIn
                state.markLoggedIn()
            }
            return answer
        }
    }

    private func write(_ message: WireMessage, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        let bytes: [UInt8]
        do {
            bytes = try message.encodedLine()
        } catch {
            context.logger.error("could not encode a response")
            bytes = Array(#"{"error":{"code":"internal","message":"encoding failed"},"ok":false,"request_id":null,"type":"response"}"#.utf8) + [0x0A]
        }
        try await outbound.write(ByteBuffer(bytes: bytes))
    }
}
