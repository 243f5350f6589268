import ParleyTestSupport
import Foundation
import Testing

/// deploy/systemd/parley-server.service (docs/OPERATIONS.md §9): systemd accepts it, its sandbox scores well,
/// and its command line, with the example configuration file, is one `parley server` accepts.
@Suite("The systemd unit", .offThePool)
struct ServiceUnitTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let unit = repository.appendingPathComponent("deploy/systemd/parley-server.service")
    static let configurationExample = repository.appendingPathComponent("deploy/systemd/server.yaml.example")

    /// The unit with ExecStart naming the binary under test (systemd checks that it is executable).
    func unitUnderTest(in directory: URL) throws -> URL {
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/parley", with: ParleyBinary.productsDirectory.appendingPathComponent("parley").path)
        let copy = directory.appendingPathComponent("parley-server.service")
        try text.write(to: copy, atomically: true, encoding: .utf8)
        return copy
    }

    func systemdAnalyze(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try ToolRun.run("/usr/bin/systemd-analyze", arguments)
    }

    @Test func systemdAcceptsItWithoutAWordOfComplaint() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let verified = try systemdAnalyze(["verify", try unitUnderTest(in: directory).path])
        #expect(verified.status == 0 && verified.output.isEmpty, "\(verified.output)")
        // An unknown key is only a warning to systemd: this test would report it (the check works).
        let broken = directory.appendingPathComponent("broken.service")
        try (try String(contentsOf: try unitUnderTest(in: directory), encoding: .utf8)
            .replacingOccurrences(of: "NoNewPrivileges=yes", with: "NoNewPrivilege=yes")).write(to: broken, atomically: true, encoding: .utf8)
        #expect(!(try systemdAnalyze(["verify", broken.path]).output.isEmpty))

        let security = try systemdAnalyze(["security", "--offline=yes", try unitUnderTest(in: directory).path])
        let level = try #require(security.output.firstMatch(of: /exposure level for [^:]+: ([0-9.]+)/).flatMap { Double($0.1) })
        #expect(level <= 2.0, "systemd-analyze security rates the sandbox \(level) (0 best, 10 worst)")
    }

    @Test func itsCommandLineIsOneParleyServerAccepts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-unit-\(UUID().uuidString)")
        let credentials = directory.appendingPathComponent("credentials")
        try FileManager.default.createDirectory(at: credentials, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The certificate and key /etc/parley/tls would hold, and what LoadCredential= hands over: the SMTP password.
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=localhost",
                             "-days", "2", "-keyout", credentials.appendingPathComponent("privkey.pem").path,
                             "-out", credentials.appendingPathComponent("fullchain.pem").path]
        openssl.standardError = FileHandle.nullDevice
        try ProcessLaunch.start(openssl)
        openssl.waitUntilExit()
        try "not a real password\n".write(to: credentials.appendingPathComponent("smtp-password"), atomically: true, encoding: .utf8)
        // The example configuration, with its paths moved into the scratch directory, owner-only as it would be.
        let configuration = directory.appendingPathComponent("server.yaml")
        try String(contentsOf: Self.configurationExample, encoding: .utf8)
            .replacingOccurrences(of: "/etc/parley/tls/", with: credentials.path + "/")
            .write(to: configuration, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: configuration.path)

        // ExecStart with its continuation lines joined, the variables filled in as systemd would.
        let unit = try String(contentsOf: Self.unit, encoding: .utf8).replacingOccurrences(of: "\\\n", with: " ")
        let execStart = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }).dropFirst("ExecStart=".count)
        #expect(unit.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        let words = execStart.split(separator: " ").map { word in
            String(word).replacingOccurrences(of: "${CREDENTIALS_DIRECTORY}", with: credentials.path)
                .replacingOccurrences(of: "/etc/parley/server.yaml", with: configuration.path)
                .replacingOccurrences(of: "/var/lib/parley", with: directory.appendingPathComponent("data").path)
        }
        #expect(words.first == "/usr/local/bin/parley" && words.dropFirst().first == "server")
        let check = Process()
        check.executableURL = URL(fileURLWithPath: ParleyBinary.productsDirectory.appendingPathComponent("parley").path)
        check.arguments = Array(words.dropFirst()) + ["--check"]
        let pipe = Pipe()
        check.standardOutput = pipe
        check.standardError = pipe
        try ProcessLaunch.start(check)
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        // Only what cannot hold on a test machine: no database yet, and no mail server at mail.example.org.
        let problems = output.split(separator: "\n").map(String.init)
        #expect(problems.allSatisfy { $0.contains("database:") || $0.contains("mailer:") }, "\(output)")
        #expect(!output.contains("Usage") && !output.lowercased().contains("check: tls"), "\(output)")
    }
}
