import Foundation
import ParleyTestSupport

/// Runs the real GnuPG in a throwaway GNUPGHOME. Tests that use it fail (never skip) when gpg is
/// missing: scripts/test installs it from scripts/test-tools.txt.
final class GPG: Sendable {
    let home: URL
    static let passphrase = "correct horse battery staple"

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("parley-gpg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        _ = try? GPG.run(["/usr/bin/gpgconf", "--kill", "all"], environment: ["GNUPGHOME": home.path])
        try? FileManager.default.removeItem(at: home)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs gpg with batch options and the fixture pass phrase; returns stdout, throws on a non-zero exit.
    @discardableResult
    func callAsFunction(_ arguments: [String], input: [UInt8] = [], passphrase: String = GPG.passphrase) throws -> [UInt8] {
        try runBlocking(arguments, input: input, passphrase: passphrase)
    }

    private func runBlocking(_ arguments: [String], input: [UInt8], passphrase: String) throws -> [UInt8] {
        let base = ["gpg", "--batch", "--yes", "--no-tty", "--pinentry-mode", "loopback", "--passphrase", passphrase, "--trust-model", "always"]
        var (status, output, error) = try GPG.run(base + arguments, input: input, environment: ["GNUPGHOME": home.path])
        // gpg-agent 2.2 now and then fails to self-sign a key it has just made ("Corrupted protection"; GnuPG's
        // own test suite hit it too). Nothing was created, so key generation gets one more try with a fresh agent.
        if status != 0, arguments.first == "--quick-gen-key", String(decoding: error, as: UTF8.self).contains("Corrupted protection") {
            _ = try? GPG.run(["/usr/bin/gpgconf", "--kill", "gpg-agent"], environment: ["GNUPGHOME": home.path])
            (status, output, error) = try GPG.run(base + arguments, input: input, environment: ["GNUPGHOME": home.path])
        }
        guard status == 0 else {
            throw Failure(description: "gpg \(arguments.joined(separator: " ")) exited \(status): \(String(decoding: error, as: UTF8.self))")
        }
        return output
    }

    /// `callAsFunction` off Swift's cooperative pool: gpg takes seconds under load, and a test blocking both
    /// of the machine's two pool threads would stall every other test's servers (see `Blocking`).
    @discardableResult
    func callAsFunction(_ arguments: [String], input: [UInt8] = [], passphrase: String = GPG.passphrase) async throws -> [UInt8] {
        try await Blocking.run { try self.runBlocking(arguments, input: input, passphrase: passphrase) }
    }

    /// `fingerprint` off the cooperative pool.
    func fingerprint(_ userID: String) async throws -> String {
        try await Blocking.run { try self.fingerprintBlocking(userID) }
    }

    /// The fingerprint of the first key matching `userID`.
    func fingerprint(_ userID: String) throws -> String {
        try fingerprintBlocking(userID)
    }

    private func fingerprintBlocking(_ userID: String) throws -> String {
        let listing = String(decoding: try runBlocking(["--with-colons", "--list-keys", userID], input: [], passphrase: GPG.passphrase), as: UTF8.self)
        guard let line = listing.split(separator: "\n").first(where: { $0.hasPrefix("fpr:") }) else {
            throw Failure(description: "no fingerprint for \(userID)")
        }
        return String(line.split(separator: ":", omittingEmptySubsequences: false)[9])
    }

    /// Writes `bytes` to a file in the home and returns its path (gpg verifies detached signatures from files).
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = home.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func run(_ arguments: [String], input: [UInt8] = [], environment: [String: String]) throws -> (Int32, [UInt8], [UInt8]) {
        // Input and stderr go through files so neither pipe can fill up and deadlock the child.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("parley-gpg-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inputURL = scratch.appendingPathComponent("in"), errorURL = scratch.appendingPathComponent("err")
        try Data(input).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe()
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try ProcessLaunch.start(process)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, [UInt8](output), [UInt8](try Data(contentsOf: errorURL)))
    }
}
