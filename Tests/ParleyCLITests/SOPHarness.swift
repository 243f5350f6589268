import Foundation
import ParleyTestSupport

/// A scratch directory for `parley sop` tests with its peers: runs `parley sop`, `sqop` and `gpg`
/// (a home of its own, its agent stopped afterwards by `GnuPGScratch`), all with files in the directory.
struct SOPHarness {
    /// One run's outcome.
    struct Run {
        let status: Int32
        let stdout: Data
        let stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    let scratch: GnuPGScratch

    init(_ prefix: String) throws { scratch = try GnuPGScratch(prefix) }

    func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }
    func write(_ name: String, _ data: Data) throws { try data.write(to: URL(fileURLWithPath: path(name))) }
    func write(_ name: String, _ text: String) throws { try write(name, Data(text.utf8)) }
    func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// `parley sop ARGUMENTS` with `stdin`.
    func parley(_ arguments: [String], stdin: Data = Data()) throws -> Run {
        let result = try ParleyBinary.runBinary(["sop"] + arguments, stdin: stdin)
        return Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// `parley sop ARGUMENTS` with the file `name` as standard input.
    func parley(_ arguments: [String], stdinFile name: String) throws -> Run {
        try parley(arguments, stdin: read(name))
    }

    /// `sqop ARGUMENTS`.
    func sqop(_ arguments: [String], stdin: Data = Data()) throws -> Run {
        try run("/usr/bin/sqop", arguments, stdin: stdin)
    }

    /// `gpg` in this directory's own home, batch mode, pass phrase `passphrase`.
    func gpg(_ arguments: [String], stdin: Data = Data(), passphrase: String = "") throws -> Run {
        let home = path("gnupg")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return try run("/usr/bin/gpg", ["--homedir", home, "--batch", "--yes", "--no-tty", "--pinentry-mode", "loopback",
                                        "--passphrase", passphrase, "--trust-model", "always"] + arguments, stdin: stdin)
    }

    /// Makes a key with `parley sop generate-key` (protected by the file `password` when given) and
    /// its certificate, as NAME.key and NAME.cert.
    func parleyKey(_ name: String, password: String? = nil) throws {
        let key = try parley(["generate-key"] + (password.map { ["--with-key-password", path($0)] } ?? []) + ["\(name) <\(name)@example.org>"])
        try write("\(name).key", key.stdout)
        try write("\(name).cert", try parley(["extract-cert"], stdin: key.stdout).stdout)
    }

    /// The same with `sqop`.
    func sqopKey(_ name: String) throws {
        let key = try sqop(["generate-key", "\(name) <\(name)@example.org>"])
        try write("\(name).key", key.stdout)
        try write("\(name).cert", try sqop(["extract-cert"], stdin: key.stdout).stdout)
    }

    /// gpg's `--with-colons` records of type `kind`, split into fields.
    static func records(_ run: Run, _ kind: String) -> [[Substring]] {
        run.text.split(separator: "\n").map { $0.split(separator: ":", omittingEmptySubsequences: false) }
            .filter { $0.first.map(String.init) == kind }
    }

    private func run(_ executable: String, _ arguments: [String], stdin: Data) throws -> Run {
        // Input and standard error go through files, so no pipe fills up and stalls the child.
        let id = UUID().uuidString
        try write("in-\(id)", stdin)
        _ = FileManager.default.createFile(atPath: path("err-\(id)"), contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: path("in-\(id)"))
            try? FileManager.default.removeItem(atPath: path("err-\(id)"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path("in-\(id)")))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: path("err-\(id)")))
        let out = Pipe()
        process.standardOutput = out
        try ProcessLaunch.start(process)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: data, stderr: String(decoding: try read("err-\(id)"), as: UTF8.self))
    }
}
