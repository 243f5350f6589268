import Foundation

/// A throwaway swtpm (Debian's software TPM 2.0) on loopback, its state in a directory of its own, stopped
/// and started again at will (its state survives, as a real TPM's does across reboots).
public final class SoftwareTPM: @unchecked Sendable {
    public let state: TemporaryDirectory
    public private(set) var port: Int = 0
    private var process: Process?

    /// swtpm's own log of every command and response that crossed its "bus", when asked for (`recordingBus`).
    public let busLog: URL?

    public init(recordingBus: Bool = false) throws {
        state = try TemporaryDirectory("parley-swtpm")
        busLog = recordingBus ? state.url.appendingPathComponent("bus.log") : nil
        try start()
    }

    /// Every byte swtpm read from or wrote to its TPM channel so far (commands and responses), from its log at
    /// level 20, which dumps each transfer in hex. Empty unless started with `recordingBus`.
    public func busTraffic() throws -> [[UInt8]] {
        guard let busLog else { return [] }
        var transfers: [[UInt8]] = []
        var current: [UInt8]?
        for line in try String(contentsOf: busLog, encoding: .utf8).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("SWTPM_IO_Read:") || text.hasPrefix("SWTPM_IO_Write:") {
                if let current { transfers.append(current) }
                current = []
            } else if current != nil, !text.isEmpty, text.split(separator: " ").allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) {
                current! += text.split(separator: " ").compactMap { UInt8($0, radix: 16) }
            } else if current != nil {
                transfers.append(current!)
                current = nil
            }
        }
        if let current { transfers.append(current) }
        return transfers
    }

    deinit { stop() }

    /// The TCTI configuration that reaches it (PARLEY_TPM_TCTI, TPM2TOOLS_TCTI).
    public var tcti: String { "swtpm:host=127.0.0.1,port=\(port)" }

    /// Starts swtpm on two free consecutive ports (the TPM's and its control channel); after a `stop`, on the same
    /// ports when they are still free, so a process holding the TCTI finds the TPM again, as after a reboot.
    public func start() throws {
        // The old ports may take a moment to be free again after a kill; a few tries before looking elsewhere.
        let previous = port
        for attempt in 0..<30 {
            let candidate = previous != 0 && attempt < 10 ? previous : Int.random(in: 20_000..<60_000) & ~1
            if candidate == previous, attempt > 0 { usleep(300_000) }
            guard Self.isFree(candidate), Self.isFree(candidate + 1) else { continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/swtpm")
            process.arguments = [
                "socket", "--tpm2", "--tpmstate", "dir=\(state.url.path)",
                "--server", "type=tcp,port=\(candidate),bindaddr=127.0.0.1",
                "--ctrl", "type=tcp,port=\(candidate + 1),bindaddr=127.0.0.1",
                "--flags", "not-need-init,startup-clear",
            ] + (busLog.map { ["--log", "file=\($0.path),level=20"] } ?? [])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try ProcessLaunch.start(process)
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, process.isRunning, Self.isFree(candidate) { usleep(20_000) }
            if process.isRunning, !Self.isFree(candidate) {
                self.process = process
                port = candidate
                return
            }
            process.terminate()
        }
        throw SoftwareTPMError()
    }

    /// Stops swtpm as a power cut would (SIGKILL: a child of the test process may inherit a blocked SIGTERM).
    /// swtpm writes its persistent state as it changes, so a restart finds it, as a real TPM's would be.
    public func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Runs a tpm2-tools command against this TPM; returns its standard output.
    public func tool(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try ToolRun.run("/usr/bin/\(name)", arguments, environment: ["TPM2TOOLS_TCTI": tcti, "PATH": "/usr/bin:/bin"])
    }

    /// Whether nothing listens on 127.0.0.1:`port`.
    public static func isFree(_ port: Int) -> Bool {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) != 0 }
        }
    }
}

public struct SoftwareTPMError: Error, CustomStringConvertible {
    public var description: String { "swtpm did not start (is the swtpm package installed?)" }
}
