import NIOCore
import ParleyWire
import Synchronization

/// Where the hub hands one connection its notifications: each is written to the channel at once (the channel keeps
/// it in order with the connection's answers), and at most `limit` may wait there unwritten. A device that does not
/// read is then disconnected rather than buffered without bound: it catches up from the store when it comes back.
final class NotificationOutlet: Sendable {
    private let channel: any Channel
    private let limit: Int
    private let waiting = Atomic<Int>(0)

    init(channel: any Channel, limit: Int = NotificationHub.queueLimit) {
        self.channel = channel
        self.limit = limit
    }

    /// Writes `queued` to the connection; false (nothing written) when `limit` notifications already wait.
    func offer(_ queued: NotificationHub.Queued) -> Bool {
        guard waiting.wrappingAdd(1, ordering: .relaxed).newValue <= limit else {
            waiting.subtract(1, ordering: .relaxed)
            return false
        }
        guard let bytes = try? queued.message.encodedLine() else {
            // A notification the server made itself always encodes; were one not to, it is only a hint.
            settle(queued)
            return true
        }
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { [self] _ in settle(queued) }
        channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: promise)
        return true
    }

    /// How many notifications wait to be written to the socket.
    var waitingCount: Int { waiting.load(ordering: .relaxed) }

    private func settle(_ queued: NotificationHub.Queued) {
        waiting.subtract(1, ordering: .relaxed)
        queued.written()
        ServerMetrics.notificationLag(.now - queued.raised)
    }
}
