import Synchronization

/// How many bytes of pushed envelopes one connection may have waiting in its notification queue
/// (docs/API.md §6.1). A push that does not fit goes out as a plain hint, so a device that reads slowly
/// costs the server at most this much ciphertext, never its whole queue of it.
final class EnvelopeAllowance: Sendable {
    /// Bytes of ciphertext one connection may have queued in pushes.
    static let bytesPerConnection = 32 * 1024

    private let queued = Atomic<Int>(0)

    /// Takes `bytes` from the allowance; false (and nothing taken) when they do not fit.
    func take(_ bytes: Int) -> Bool {
        var current = queued.load(ordering: .relaxed)
        while current + bytes <= Self.bytesPerConnection {
            let (exchanged, original) = queued.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives back what a written push took.
    func give(_ bytes: Int) {
        queued.subtract(bytes, ordering: .relaxed)
    }
}
