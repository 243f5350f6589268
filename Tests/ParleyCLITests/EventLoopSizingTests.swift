import Foundation
import ParleyTestSupport
import Testing

/// `parley server` runs one NIO event loop per CPU it may run on: pinned to one core (`taskset -c 0`), one loop.
@Suite("event loops sized to the allowed CPUs", .offThePool)
struct EventLoopSizingTests {
    /// The names of `pid`'s threads that are NIO's shared event loops.
    static func eventLoopThreads(of pid: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
            .filter { $0.hasPrefix("NIO-SGLTN") }
    }

    /// Starts `parley server --dev` under `taskset -c CPUS` (or without it), returns its loop threads once it listens.
    static func loops(pinnedTo cpus: String?, environment: [String: String] = [:]) async throws -> [String] {
        let data = try TemporaryDirectory("event-loops")
        let port = try LocalPorts.free()
        let process = Process()
        let server = ["server", "--dev", "--listen", "127.0.0.1:\(port)", "--data", data.url.path]
        if let cpus {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
            process.arguments = ["-c", cpus, ParleyBinary.productsDirectory.appendingPathComponent("parley").path] + server
        } else {
            process.executableURL = ParleyBinary.productsDirectory.appendingPathComponent("parley")
            process.arguments = server
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ProcessLaunch.start(process)
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        for _ in 0..<300 where !LocalPorts.accepts(port) { try await Task.sleep(for: .milliseconds(100)) }
        #expect(LocalPorts.accepts(port), "the server did not listen in 30 s")
        return eventLoopThreads(of: process.processIdentifier)
    }

    @Test("pinned to one core: one event loop; NIO's own setting still wins")
    func oneLoopOnOneCore() async throws {
        #expect(try await Self.loops(pinnedTo: "0").count == 1)
        #expect(try await Self.loops(pinnedTo: "0", environment: ["NIO_SINGLETON_GROUP_LOOP_COUNT": "3"]).count == 3)
    }

    @Test("unpinned: one event loop per core")
    func oneLoopPerCore() async throws {
        #expect(try await Self.loops(pinnedTo: nil).count == ProcessInfo.processInfo.activeProcessorCount)
    }
}
