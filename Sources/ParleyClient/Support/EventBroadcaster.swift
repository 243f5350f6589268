import Foundation
import Synchronization

/// Hands every event to any number of subscribers, each through its own `AsyncStream`.
final class EventBroadcaster<Event: Sendable>: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<Event>.Continuation]>([:])

    /// A new stream of every event from now on; it ends when `finish()` is called.
    func subscribe(bufferingNewest limit: Int = 1024) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(limit))
        let id = UUID()
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.removeValue(forKey: id) } }
        return stream
    }

    /// Sends `event` to every subscriber.
    func yield(_ event: Event) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    /// Ends every stream.
    func finish() {
        for continuation in subscribers.withLock({ state in defer { state.removeAll() }; return Array(state.values) }) {
            continuation.finish()
        }
    }
}
