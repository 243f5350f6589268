#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Hands memory back to the operating system after a flood of connections has gone.
///
/// glibc keeps what thousands of closed connections freed in its arenas, so resident memory stays at the
/// flood's peak (measured: 1.27 GB after 1,000 connections closed; docs/PERFORMANCE.md). When the number of
/// open connections has dropped by `minimumDrop` since the last look, `malloc_trim(0)` returns the free pages.
/// Elsewhere than glibc this does nothing.
struct MemoryReturn: Sendable {
    /// The drop in open connections, from their peak, that is worth a trim.
    let minimumDrop: Int

    /// Trims when `drop` (connections closed since the peak) is large enough; true when it did.
    @discardableResult
    func afterDrop(of drop: Int) -> Bool {
        guard drop >= minimumDrop, let trim = Self.mallocTrim else { return false }
        // It can take some milliseconds on a large heap: never on an event loop.
        DispatchQueue.global(qos: .utility).async { _ = trim(0) }
        return true
    }

    private typealias Trim = @convention(c) (Int) -> Int32

    /// glibc's `malloc_trim`, looked up at run time (Swift's Glibc module does not declare it).
    private static let mallocTrim: Trim? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
        #else
        return nil
        #endif
    }()
}
