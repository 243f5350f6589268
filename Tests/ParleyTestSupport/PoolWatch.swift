import Foundation

/// Watches Swift's cooperative pool from a thread of its own and says on standard error when a task waited
/// long before it ran.
///
/// The in-process test servers run on that pool, which has one thread per core (two on the CI machine) and
/// does not grow when a thread blocks. A test that blocks a pool thread (a child process waited for, a
/// blocking read) while another does the same stalls every server in the process, and the victims are other
/// tests, which fail with timeouts that say nothing of the cause. The report names the moment (seconds since
/// the process started, the clock swift-testing's "after N seconds" counts in), so the log's "started" lines
/// around it show who blocked.
public enum PoolWatch {
    /// A stall at least this long is reported.
    static let threshold: Duration = .seconds(2)

    private static let started: Void = {
        let thread = Thread { watch() }
        thread.name = "parley-pool-watch"
        thread.start()
    }()

    /// Starts the watch once per process; later calls do nothing.
    public static func start() { _ = started }

    private static func watch() {
        while true {
            let ran = DispatchSemaphore(value: 0)
            let sent = ContinuousClock.now
            Task { ran.signal() }
            if ran.wait(timeout: .now() + threshold.timeInterval) == .timedOut {
                if ProcessInfo.processInfo.environment["PARLEY_POOL_STACKS"] != nil { writeStacks() }
                ran.wait()
            }
            let waited = ContinuousClock.now - sent
            if waited >= threshold {
                let at = processSeconds().map { String(format: " %.1f s", $0) } ?? ""
                let line = String(format: "parley-tests: Swift's cooperative pool ran nothing for %.1f s", waited.timeInterval)
                    + "\(at.isEmpty ? "" : ", ending\(at) into the run") (tests held its threads; PARLEY_POOL_STACKS=1 shows which)\n"
                FileHandle.standardError.write(Data(line.utf8))
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    /// With `PARLEY_POOL_STACKS` set, every thread's stack while the pool stalls (gdb, attached for a moment),
    /// into `parley-pool-stall-PID-TIME.txt` in the temporary directory: the pool's threads show who holds them.
    private static func writeStacks() {
        let name = "parley-pool-stall-\(getpid())-\(Int(Date().timeIntervalSince1970)).txt"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
              let output = try? FileHandle(forWritingTo: file) else { return }
        defer { try? output.close() }
        let gdb = Process()
        gdb.executableURL = URL(fileURLWithPath: "/usr/bin/gdb")
        gdb.arguments = ["-p", "\(getpid())", "-batch", "-ex", "thread apply all bt 40"]
        gdb.standardOutput = output
        gdb.standardError = FileHandle.nullDevice
        guard (try? gdb.run()) != nil else { return }
        gdb.waitUntilExit()
        FileHandle.standardError.write(Data("parley-tests: the stacks during the stall are in \(file.path)\n".utf8))
    }

    /// Seconds since this process started (`/proc/self/stat`'s start time against the system's uptime).
    private static func processSeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let uptime = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces) start at field 3; the start time is field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]),
              let now = uptime.split(separator: " ").first.flatMap({ Double($0) }) else { return nil }
        return now - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's time intervals count.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
