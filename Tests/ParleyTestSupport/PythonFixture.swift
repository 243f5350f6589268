import Foundation

/// A test server written in Python (scripts/test-fixtures/NAME.py, run by Debian's /usr/bin/python3) that prints
/// "READY <port>" once it accepts connections and runs until killed.
public final class PythonFixture: Sendable {
    public let port: Int
    private let process: Process

    struct Failed: Error, CustomStringConvertible { let description: String }

    /// Starts `scripts/test-fixtures/NAME.py` with `arguments`; `hint` says what to install when it does not start.
    /// Blocks until the READY line: start fixtures off the cooperative pool (`start`).
    public init(_ name: String, arguments: [String], hint: String) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/test-fixtures/\(name).py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try ProcessLaunch.start(process)
        self.process = process
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("READY "), let port = Int(text.dropFirst(6)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Failed(description: "\(name).py did not start (\(hint)): \(text)")
        }
        self.port = port
    }

    /// Starts a fixture off the cooperative pool (`Blocking`).
    public static func start(_ name: String, arguments: [String], hint: String) async throws -> PythonFixture {
        try await Blocking.run { try PythonFixture(name, arguments: arguments, hint: hint) }
    }

    /// Kills it. SIGKILL, because a child spawned from a test thread may inherit a mask that blocks SIGTERM,
    /// and then `terminate()` never ends it.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
