import Foundation
import ParleyTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real gpsd, started by gpsfake (Debian's gpsd-clients) replaying an NMEA log, on a port the kernel said was free.
///
/// gpsfake is Python and starts gpsd itself, which takes seconds when the whole suite loads the machine:
/// `waitUntilListening` waits for gpsd's port, and what gpsfake and gpsd said goes into a failure's message.
final class GPSFake {
    let port: Int
    private let process = Process()
    private let log: URL

    /// Starts gpsfake on `nmea` (one sentence every 50 ms). `-n`: gpsd reads the log from the start instead of
    /// waiting for a client; without it, the port check's connection and the client's later one raced gpsd's
    /// opening and closing of the device, and once the client waited 20 minutes for a fix that never came.
    init(replaying nmea: URL) throws {
        port = try LocalPorts.free()
        log = nmea.deletingLastPathComponent().appendingPathComponent("gpsfake-\(port).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gpsfake")
        process.arguments = ["-q", "-n", "-c", "0.05", "-P", String(port), nmea.path]
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        try ProcessLaunch.start(process)
    }

    /// Waits (60 s at most) until gpsd accepts connections; false if gpsfake ended first or time ran out.
    func waitUntilListening() async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, process.isRunning {
            if LocalPorts.accepts(port) { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return false
    }

    /// What gpsfake and its gpsd printed, and whether gpsfake still runs (for a failure's message).
    var diagnostics: String {
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return "gpsfake on port \(port) \(process.isRunning ? "runs" : "ended with \(process.terminationStatus)"); it said: \(said.suffix(800))"
    }

    /// Stops gpsd, then gpsfake. SIGKILL: children spawned from the test runner inherit a blocked SIGTERM.
    func stop() {
        for child in Self.children(of: process.processIdentifier) { kill(child, SIGKILL) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Process ids whose parent is `parent`, from /proc.
    static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")")
            else { return nil }
            // Fields after the command name: state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent ? pid : nil
        }
    }
}
