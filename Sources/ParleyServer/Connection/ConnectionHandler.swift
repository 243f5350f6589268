import Logging
import NIOCore
import ParleyWire

/// Serves one client connection: frames lines, runs requests one at a time, writes answers.
///
/// Requests are handled in order and the next line is read only after the answer was handed to
/// the channel, whose writer suspends while the socket is not writable: a client that sends but
/// never reads stalls only itself, and the server's memory for it stays bounded. Unfinished lines
/// are paid for from the server-wide `LineBudget` before they are buffered.
struct ConnectionHandler {
    let context: ServerContext
    let router: RequestRouter
    let state: ConnectionState
    let remoteAddress: String
    let budget: ConnectionBudget
    let lines: LineBudget

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
                            queued.written()
                            ServerMetrics.notificationLag(.now - queued.raised)
                        }
                    }
                    group.addTask { await Presence.cameOnline(caller, onlineHere: onlineHere, context: context) }
                    group.addTask { [state] in await LoginRecheck.run(caller, state: state, context: context) }
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
        let configuration = context.configuration
        var framer = LineFramer(maximumLineLength: min(configuration.limits.maximumLineLengthBeforeLogin, configuration.maximumLineLength))
        var held = 0  // bytes reserved from `lines` for the unfinished line
        defer { lines.release(held) }
        var caller: Caller?
        var limiter = RateLimiter(
            rate: configuration.requestsPerSecond, burst: configuration.requestsPerSecond * 2, now: context.clock.now())
        for try await buffer in inbound {
            let bytes = buffer.readableBytesView
            let partial = LineBudget.partialAfter(buffered: framer.bufferedByteCount, reading: bytes)
            // A line over the connection's own limit is refused by the framer; only what it would keep is paid for.
            if partial > held, partial <= framer.maximumLineLength {
                guard lines.reserve(partial - held) else {
                    ServerMetrics.refused("partial_line_budget")
                    let error = WireError(.lineTooLong, "the server holds too many unfinished lines right now; send shorter lines or reconnect later (the connection is closed)")
                    try await write(.failure(requestID: nil, error: error), to: outbound)
                    return
                }
                held = partial
            }
            for event in framer.feed(bytes) {
                switch event {
                case .lineTooLong:
                    ServerMetrics.refused("line_too_long")
                    let error = WireError(.lineTooLong, lineLimitMessage(framer.maximumLineLength))
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
                        if let caller, caller != before {
                            framer.maximumLineLength = configuration.maximumLineLength
                            onLogin(caller)
                        }
                    }
                    try await write(answer, to: outbound)
                }
            }
            if framer.bufferedByteCount < held {
                lines.release(held - framer.bufferedByteCount)
                held = framer.bufferedByteCount
            }
        }
    }

    private func lineLimitMessage(_ limit: Int) -> String {
        let after = context.configuration.maximumLineLength
        let login = limit < after ? " before login (\(after) after)" : ""
        return "a request line may hold at most \(limit) bytes\(login); the connection is closed"
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
