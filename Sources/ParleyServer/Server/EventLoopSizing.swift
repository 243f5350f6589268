import NIOCore
import Foundation

/// Sizes NIO's shared event loops to the CPUs this process may run on.
///
/// NIO counts the machine's cores (and a cgroup's CPU quota) but not the affinity mask, so a server started with
/// `taskset -c 0` or systemd's `CPUAffinity=` still ran two event loops on its one core, and every hand-off between
/// them cost a context switch. With one loop per allowed CPU, a server pinned to one core of two used 0.9× the CPU
/// per delivery at 2,000 msg/s (314–331 against 355–364 µs, four runs each) and had a lower p99 (docs/PERFORMANCE.md).
public enum EventLoopSizing {
    /// Suggests one shared event loop per allowed CPU, unless `NIO_SINGLETON_GROUP_LOOP_COUNT` says otherwise. Call it
    /// first thing in `main`, before anything uses `MultiThreadedEventLoopGroup.singleton` (NIO stops the process if the
    /// suggestion comes later).
    public static func matchAllowedCPUs(environment: [String: String]) {
        guard environment["NIO_SINGLETON_GROUP_LOOP_COUNT"] == nil, let allowed = allowedCPUs(), allowed < System.coreCount else { return }
        NIOSingletons.groupLoopCountSuggestion = allowed
    }

    /// How many CPUs the affinity mask lets this process run on (`Cpus_allowed` in /proc/self/status, a hex mask in
    /// comma-separated words); nil where that cannot be read.
    public static func allowedCPUs() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return allowedCPUs(status: status)
    }

    /// The CPUs the `Cpus_allowed` line of a /proc/PID/status text allows; nil without a readable line.
    static func allowedCPUs(status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
        let mask = line.dropFirst("Cpus_allowed:".count).filter { $0 != "," && $0 != " " && $0 != "\t" }
        var count = 0
        for digit in mask {
            guard let value = digit.hexDigitValue else { return nil }
            count += value.nonzeroBitCount
        }
        return count > 0 ? count : nil
    }
}
