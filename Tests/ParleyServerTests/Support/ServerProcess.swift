import ParleyTestSupport
import Foundation

/// The real `parley server` binary in its own process, for crash and signal tests.
///
/// Starting, stopping and running one to its end wait for another process: they do it off the cooperative pool
/// (`Blocking`), where a wait would stall every other test's in-process servers. Its properties are set once, in
/// `init`, hence `@unchecked Sendable`.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    /// Where `--metrics` serves, when it was given.
    let metricsPort: Int?
    private let output = Pipe()

    /// Starts `parley server` on a free port with `data` as its data directory: `--dev`, or with
    /// `mailer` arguments (`--smtp …`) instead, and any `extraArguments`.
    static func start(data: URL, mailer: [String]? = nil, extraArguments: [String] = []) async throws -> ServerProcess {
        try await Blocking.run { try ServerProcess(data: data, mailer: mailer, extraArguments: extraArguments) }
    }

    private init(data: URL, mailer: [String]?, extraArguments: [String]) throws {
        let binary = Self.productsDirectory.appendingPathComponent("parley")
        process.executableURL = binary
        // A long login timeout: these tests are about crashes and signals, and when the whole suite runs
        // in parallel on two cores, registering two people can take longer than the default 30 s.
        process.arguments = ["server"] + (mailer ?? ["--dev"])
            + ["--listen", "127.0.0.1:0", "--data", data.path, "--login-timeout", "600"] + extraArguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try ProcessLaunch.start(process)
        // The first line says where the server listens: "... tcp://127.0.0.1:PORT (data: ...)"; with --metrics
        // a second one says where the metrics are.
        let lines = extraArguments.contains("--metrics") ? 2 : 1
        var line = Data()
        while line.filter({ $0 == 0x0A }).count < lines {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw LineSocket.Failure(description: "parley server exited before listening") }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
            let port = Int(text[range].split(separator: ":")[1])
        else { throw LineSocket.Failure(description: "unexpected first line: \(text)") }
        self.port = port
        metricsPort = text.range(of: #"metrics at http://127\.0\.0\.1:(\d+)"#, options: .regularExpression)
            .flatMap { Int(text[$0].split(separator: ":").last ?? "") }
        // Keep reading the server's log so a full pipe can never stall it: on a thread of its own that ends at the
        // pipe's end (the server gone), not a `readabilityHandler` — that is a dispatch read source on the pipe, and
        // once the test let go of the pipe its descriptor could be closed (and reused) under the source, which
        // crashed libdispatch's manager thread (`_dispatch_event_loop_drain`, signal 11) in one CI rehearsal.
        let log = output.fileHandleForReading
        Thread.detachNewThread { while !log.availableData.isEmpty {} }
    }

    /// Sends `signal` and waits for the process to end; returns its exit status.
    @discardableResult
    func stop(signal: Int32) async -> Int32 {
        kill(process.processIdentifier, signal)
        let process = process
        _ = try? await Blocking.run { process.waitUntilExit() }
        return process.terminationStatus
    }

    /// Sends SIGKILL and does not wait (for a `defer`, which cannot wait; Foundation reaps the process).
    func killWithoutWaiting() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Runs `parley ARGUMENTS` to its end (a command that exits by itself, like `server --check` or a
    /// refused start); returns the exit status and standard error.
    static func runToExit(_ arguments: [String], environment: [String: String] = [:]) async throws -> (Int32, String) {
        try await Blocking.run { try runToExitBlocking(arguments, environment: environment) }
    }

    private static func runToExitBlocking(_ arguments: [String], environment: [String: String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("parley")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try ProcessLaunch.start(process)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Runs `parley ARGUMENTS` to its end with standard output and error in one text; returns the exit status and it.
    static func runToExitWithOutput(_ arguments: [String]) async throws -> (Int32, String) {
        try await Blocking.run { try runToExitWithOutputBlocking(arguments) }
    }

    private static func runToExitWithOutputBlocking(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("parley")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try ProcessLaunch.start(process)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    static var productsDirectory: URL {
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }
}
