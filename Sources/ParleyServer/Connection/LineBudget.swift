import Synchronization

/// The bytes of unfinished request lines all connections together may hold (`--partial-line-budget`).
///
/// A connection reserves what its next read would leave buffered before it feeds those bytes to its framer,
/// so once the budget is spent a line is refused before more of it is held.
final class LineBudget: Sendable {
    /// The budget in bytes.
    let capacity: Int
    private let used = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Bytes reserved now.
    var reserved: Int { used.load(ordering: .relaxed) }

    /// Takes `bytes` from the budget if they fit.
    func reserve(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        var current = used.load(ordering: .relaxed)
        while true {
            guard current + bytes <= capacity else { return false }
            let (exchanged, original) = used.compareExchange(
                expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Gives `bytes` back.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        used.subtract(bytes, ordering: .relaxed)
    }

    /// How many bytes of an unfinished line a framer holding `buffered` bytes would hold after reading
    /// `incoming`: what follows the last newline, or everything when there is none.
    static func partialAfter<C: BidirectionalCollection<UInt8>>(buffered: Int, reading incoming: C) -> Int {
        guard let newline = incoming.lastIndex(of: 0x0A) else { return buffered + incoming.count }
        return incoming.distance(from: incoming.index(after: newline), to: incoming.endIndex)
    }
}
