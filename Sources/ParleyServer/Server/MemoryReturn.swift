#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Hands memory back to the operating system after a flood of connections has gone.
///
/// glibc keeps what thousands of closed connections freed in its arenas, so resident memory stays at the
/// flood's peak (measured: 1.27 GB after 1,000 connections closed; docs/PERFORMANCE.md). When many connections
/// arrived since the last trim (admitted or refused) and at most half the peak since then is still open, a
/// flood has passed and `malloc_trim(0)` returns the free pages. Elsewhere than glibc this does nothing.
struct MemoryReturn: Sendable {
    /// What the connection budget saw since the last trim.
    struct Activity: Sendable, Equatable {
        var arrivals: Int
        var peak: Int
        var open: Int
    }

    /// The arrivals since the last trim that make a flood worth trimming after.
    let minimumArrivals: Int

    /// Whether `activity` is a flood that has passed: many arrivals, and at most half the peak still open.
    func floodPassed(_ activity: Activity) -> Bool {
        activity.arrivals >= minimumArrivals && activity.open * 2 <= activity.peak
    }

    /// Trims when `activity` is a flood that has passed; true when it did.
    @discardableResult
    func after(_ activity: Activity) -> Bool {
        guard floodPassed(activity), let trim = Self.mallocTrim else { return false }
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
