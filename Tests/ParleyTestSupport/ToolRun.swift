import Foundation

/// Runs a system tool to its end and returns its exit status and what it printed (standard output and error
/// together), read with interrupted reads retried.
public enum ToolRun {
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try ProcessLaunch.start(process)
        try? pipe.fileHandleForWriting.close()
        var output = Data()
        PipeRead.chunks(pipe.fileHandleForReading) { output.append($0) }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
