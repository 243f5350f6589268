import ParleyWire
import Synchronization

/// Carries notifications from the event loop to the account in arrival order, a bounded backlog at a time.
///
/// Acting on a notification (a fetch, a key renewal) is much slower than reading one, so a server that sends them
/// faster than the account acts would otherwise fill the client's memory. Past `maximumCount` waiting notifications,
/// or `maximumBytes` of their lines, `push` refuses and the connection closes: the reconnect's catch-up fetches what
/// the store holds, as after any lost connection (notifications are hints, docs/API.md §6).
final class NotificationPump: Sendable {
    /// Notifications that may wait to be acted on.
    static let maximumCount = 4_096
    /// Bytes of their lines that may wait (a server pushes envelopes of up to 4 KiB by default).
    static let maximumBytes = 32 << 20

    private typealias Notice = (event: String, fields: [String: JSONValue], lineBytes: Int)
    private let continuation: AsyncStream<Notice>.Continuation
    private let backlog: Backlog

    init(handler: @escaping NoticeHandler, maximumCount: Int = maximumCount, maximumBytes: Int = maximumBytes) {
        let (stream, continuation) = AsyncStream<Notice>.makeStream()
        let backlog = Backlog(maximumCount: maximumCount, maximumBytes: maximumBytes)
        self.continuation = continuation
        self.backlog = backlog
        Task {
            for await notice in stream {
                await handler(notice.event, notice.fields)
                backlog.release(notice.lineBytes)
            }
        }
    }

    /// Queues one notification; false (and nothing queued) when the backlog is full.
    func push(_ event: String, _ fields: [String: JSONValue], lineBytes: Int) -> Bool {
        guard backlog.take(lineBytes) else { return false }
        continuation.yield((event, fields, lineBytes))
        return true
    }

    deinit { continuation.finish() }

    /// What waits, counted.
    private final class Backlog: Sendable {
        private struct Load { var count = 0, bytes = 0 }
        private let load = Mutex(Load())
        private let maximumCount: Int
        private let maximumBytes: Int

        init(maximumCount: Int, maximumBytes: Int) {
            self.maximumCount = maximumCount
            self.maximumBytes = maximumBytes
        }

        func take(_ bytes: Int) -> Bool {
            load.withLock { load in
                guard load.count < maximumCount, bytes <= maximumBytes - load.bytes else { return false }
                load.count += 1
                load.bytes += bytes
                return true
            }
        }

        func release(_ bytes: Int) {
            load.withLock { load in
                load.count -= 1
                load.bytes -= bytes
            }
        }
    }
}
