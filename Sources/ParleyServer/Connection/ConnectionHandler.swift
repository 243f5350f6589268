import NIOCore
import ParleyWire

/// Serves one client connection on its event loop: frames lines, answers them one at a time, writes the answers.
///
/// Requests are answered in order, each in a task started when its line is complete (`RequestResponder`), so an idle
/// connection holds no task and no suspended stack: only this handler and its channel. Nothing more is read while
/// reads wait behind the request being answered (one read event brings at most four, the channel's
/// `maxMessagesPerRead`), or while the socket is not writable (the `read` event is held, as NIO's back-pressure
/// handler does): a client that sends but never reads stalls only itself, and the server's memory for it stays
/// bounded. (Holding the read whenever a request was being answered, even with nothing waiting, cost two `epoll_ctl`
/// calls per request, as NIO stopped and restarted watching the socket.) Unfinished lines are paid for from the
/// server-wide `LineBudget` before they are buffered. Notifications reach the channel from the hub directly
/// (`NotificationOutlet`).
final class ConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let responder: RequestResponder
    private let lines: LineBudget
    private let subscription: Subscription
    /// Called once, when the channel has closed and no request is in flight any more.
    private let onEnd: () -> Void

    private var framer: LineFramer
    private var limiter: RateLimiter
    private var caller: Caller?
    /// Bytes reserved from `lines` for the unfinished line.
    private var held = 0
    /// Reads not yet fed to the framer (they arrive while a request is answered), from `unreadStart` on.
    private var unread: [ByteBuffer] = []
    private var unreadStart = 0
    /// Complete lines (and a refusal) not yet answered, from `pendingStart` on.
    private var pending: [LineFramer.Event] = []
    private var pendingStart = 0
    private var busy = false
    private var writable = true
    private var readHeld = false
    private var closing = false
    private var removed = false
    private var ended = false
    /// The login's presence announcement while it runs, which the departure's must follow; let go once done, so an
    /// idle connection does not keep a finished task's memory.
    private var arrival: Task<Void, Never>?
    /// Counts logins, so a finished announcement lets go of `arrival` only if no later login replaced it.
    private var arrivals = 0

    init(responder: RequestResponder, lines: LineBudget, onEnd: @escaping () -> Void) {
        self.responder = responder
        self.lines = lines
        self.onEnd = onEnd
        subscription = Subscription(hub: responder.context.notifications, state: responder.state)
        let configuration = responder.context.configuration
        framer = LineFramer(maximumLineLength: min(configuration.limits.maximumLineLengthBeforeLogin, configuration.maximumLineLength))
        limiter = RateLimiter(
            rate: configuration.requestsPerSecond, burst: configuration.requestsPerSecond * 2, now: responder.context.clock.now())
    }

    private var server: ServerContext { responder.context }

    // MARK: Reading

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        unread.append(unwrapInboundIn(data))
        serve(context)
    }

    func read(context: ChannelHandlerContext) {
        if mayRead { context.read() } else { readHeld = true }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        writable = context.channel.isWritable
        serve(context)
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // One client's broken connection never affects the others.
        server.logger.debug("connection ended with an error", metadata: ["error": "\(type(of: error))"])
        close(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
        closing = true
        lines.release(held)
        held = 0
        (unread, unreadStart) = ([], 0)
        (pending, pendingStart) = ([], 0)
        endIfDone()
    }

    /// The socket takes more and no read waits: the next read may come.
    private var mayRead: Bool {
        !closing && writable && unreadStart == unread.count
    }

    /// Answers what has arrived, one request at a time, then lets the next read come.
    private func serve(_ context: ChannelHandlerContext) {
        while !busy, !closing, writable {
            if pendingStart < pending.count {
                let event = pending[pendingStart]
                pendingStart += 1
                take(event, context)
            } else if unreadStart < unread.count {
                let buffer = unread[unreadStart]
                unreadStart += 1
                if unreadStart == unread.count { (unread, unreadStart) = ([], 0) }
                pending = []
                pendingStart = 0
                feed(buffer, context)
            } else {
                // Nothing waits: an idle connection keeps no line it has answered.
                if !pending.isEmpty { (pending, pendingStart) = ([], 0) }
                break
            }
        }
        if mayRead, readHeld {
            readHeld = false
            context.read()
        }
    }

    /// Pays for what would stay unfinished, then frames the bytes.
    private func feed(_ buffer: ByteBuffer, _ context: ChannelHandlerContext) {
        let bytes = buffer.readableBytesView
        let partial = LineBudget.partialAfter(buffered: framer.bufferedByteCount, reading: bytes)
        // A line over the connection's own limit is refused by the framer; only what it would keep is paid for.
        if partial > held, partial <= framer.maximumLineLength {
            guard lines.reserve(partial - held) else {
                ServerMetrics.refused("partial_line_budget")
                refuse(WireError(.lineTooLong, "the server holds too many unfinished lines right now; send shorter lines or reconnect later (the connection is closed)"), context)
                return
            }
            held = partial
        }
        pending = framer.feed(bytes)
        if framer.bufferedByteCount < held {
            lines.release(held - framer.bufferedByteCount)
            held = framer.bufferedByteCount
        }
    }

    private func take(_ event: LineFramer.Event, _ context: ChannelHandlerContext) {
        switch event {
        case .lineTooLong:
            ServerMetrics.refused("line_too_long")
            refuse(WireError(.lineTooLong, lineLimitMessage(framer.maximumLineLength)), context)
        case .line(let bytes):
            guard !bytes.isEmpty else { return }
            guard responder.state.beginRequest() else {
                close(context)
                return
            }
            busy = true
            let allows = limiter.allow(now: server.clock.now())
            let responder = self.responder, caller = self.caller
            let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
            Task {
                let result = await responder.answer(bytes, caller: caller, connectionAllows: allows)
                // Encoded here, not on the event loop: a long answer must not hold up the loop's other connections.
                let line = RequestResponder.line(result.answer, context: responder.context)
                bound.eventLoop.execute { bound.value.handler.finish(line, caller: result.caller, bound.value.context) }
            }
        }
    }

    /// Back on the event loop with a request's answer: a login subscribes, the answer is written, the next line is served.
    private func finish(_ line: [UInt8], caller: Caller?, _ context: ChannelHandlerContext) {
        busy = false
        guard !removed else {
            responder.state.endRequest()
            endIfDone()
            return
        }
        if let caller, caller != self.caller {
            self.caller = caller
            framer.maximumLineLength = server.configuration.maximumLineLength
            loggedIn(caller, context)
        }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: line)), promise: nil)
        responder.state.endRequest()
        serve(context)
    }

    // MARK: Login and leaving

    /// After a login, notifications for that device flow to this channel, and contacts hear it came online.
    private func loggedIn(_ caller: Caller, _ context: ChannelHandlerContext) {
        let server = self.server, state = responder.state
        let onlineHere = server.notifications.isOnline(accountID: caller.accountID)
        subscription.start(caller)
        let previous = arrival
        arrivals += 1
        let number = arrivals
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        arrival = Task {
            await previous?.value
            await Presence.cameOnline(caller, onlineHere: onlineHere, context: server)
            bound.eventLoop.execute { bound.value.arrived(number) }
        }
        Task { await LoginRecheck.run(caller, state: state, context: server) }
    }

    /// The announcement of login `number` went out: nothing needs to wait for it any more.
    private func arrived(_ number: Int) {
        if number == arrivals { arrival = nil }
    }

    /// Once closed with no request in flight: no more notifications, contacts hear it left, the server forgets it.
    private func endIfDone() {
        guard removed, !busy, !ended else { return }
        ended = true
        if let departed = subscription.cancel() {
            let server = self.server, arrival = self.arrival
            Task {
                await arrival?.value
                await Presence.wentOffline(departed, context: server)
            }
        }
        onEnd()
    }

    // MARK: Closing

    /// Writes `error` as the connection's last line and closes it.
    private func refuse(_ error: WireError, _ context: ChannelHandlerContext) {
        closing = true
        let channel = context.channel
        let line = RequestResponder.line(.failure(requestID: nil, error: error), context: server)
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: line))).whenComplete { _ in channel.close(promise: nil) }
    }

    private func close(_ context: ChannelHandlerContext) {
        closing = true
        context.close(promise: nil)
    }

    private func lineLimitMessage(_ limit: Int) -> String {
        let after = server.configuration.maximumLineLength
        let login = limit < after ? " before login (\(after) after)" : ""
        return "a request line may hold at most \(limit) bytes\(login); the connection is closed"
    }
}
