import Foundation
import ParleyTestSupport
import Testing

/// `parley server --config FILE`, `PARLEY_SERVER_*` and flags (docs/OPERATIONS.md §11), through the binary.
@Suite("parley server: configuration file and environment", .serialized, .offThePool)
struct ServerConfigFileTests {
    /// Writes `text` as an owner-only file in `directory`.
    static func file(_ text: String, in directory: URL, name: String = "server.yaml", mode: Int = 0o600) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test("a file, the environment and flags give the same settings, the last word wins, and every option can be set")
    func sameServerThreeWays() throws {
        let scratch = try TemporaryDirectory("parley-config")
        let data = scratch.url.appendingPathComponent("data").path
        let config = try Self.file("""
            # Parley for the club
            listen: "127.0.0.1:7999"
            data: \(data)
            registration: closed
            max-line: 65536
            sweep-minutes: 5
            dev: true
            tls-cert: null
            """, in: scratch.url)
        let fromFile = try ParleyBinary.run(["server", "--config", config, "--print-config"])
        let fromFlags = try ParleyBinary.run([
            "server", "--listen", "127.0.0.1:7999", "--data", data, "--registration", "closed", "--max-line", "65536",
            "--sweep-minutes", "5", "--dev", "--print-config",
        ])
        let fromEnvironment = try ParleyBinary.run(["server", "--print-config"], environment: [
            "PARLEY_SERVER_LISTEN": "127.0.0.1:7999", "PARLEY_SERVER_DATA": data, "PARLEY_SERVER_REGISTRATION": "closed",
            "PARLEY_SERVER_MAX_LINE": "65536", "PARLEY_SERVER_SWEEP_MINUTES": "5", "PARLEY_SERVER_DEV": "true",
        ])
        #expect(fromFile.status == 0 && fromFlags.status == 0 && fromEnvironment.status == 0, "\(fromFile.stderr)\(fromFlags.stderr)\(fromEnvironment.stderr)")
        #expect(fromFile.stdout == fromFlags.stdout)
        #expect(fromEnvironment.stdout == fromFlags.stdout)
        #expect(fromFile.stdout.contains("registration: \"closed\"\n") && fromFile.stdout.contains("max-line: 65536\n"))

        // The environment overrides the file, the command line both; PARLEY_SERVER_CONFIG names the file.
        let layered = try ParleyBinary.run(["server", "--max-line", "4096", "--print-config"], environment: [
            "PARLEY_SERVER_CONFIG": config, "PARLEY_SERVER_MAX_LINE": "8192", "PARLEY_SERVER_REGISTRATION": "invite",
        ])
        #expect(layered.status == 0, "\(layered.stderr)")
        #expect(layered.stdout.contains("max-line: 4096\n") && layered.stdout.contains("registration: \"invite\"\n"), "\(layered.stdout)")
        #expect(layered.stdout.contains("listen: \"127.0.0.1:7999\"\n"))

        // What --print-config writes is a configuration file that gives the same settings again.
        let printed = try Self.file(fromFile.stdout, in: scratch.url, name: "printed.yaml")
        let again = try ParleyBinary.run(["server", "--config", printed, "--print-config"])
        #expect(again.status == 0 && again.stdout == fromFile.stdout, "\(again.stderr)")

        // Every option in --help is a setting (so the file can say everything the command line can).
        let help = try ParleyBinary.run(["server", "--help"]).stdout
        let options = Set(help.matches(of: /--([a-z][a-z0-9-]+)/).map { String($0.output.1) })
            .subtracting(["help", "version", "config", "check", "print-config"])
        #expect(options.count > 25)
        for option in options {
            #expect(fromFile.stdout.contains("\n\(option): "), "--\(option) is missing from --print-config")
        }
    }

    @Test("a server started from a configuration file runs with its settings")
    func serverFromFile() async throws {
        let scratch = try TemporaryDirectory("parley-config")
        let data = scratch.url.appendingPathComponent("data")
        let config = try Self.file("""
            listen: 127.0.0.1:0
            data: \(data.path)
            dev: true
            registration: closed
            """, in: scratch.url)
        let server = try LiveProcess(["server", "--config", config])
        defer { server.kill() }
        let port = try await server.waitFor(#"(?<=listening on tcp://127\.0\.0\.1:)\d+"#)
        #expect(server.text.contains("(data: \(data.path); registration: closed)"), "\(server.text)")
        let register = try await ParleyBinary.runDetached(
            ["account", "register", "--home", scratch.url.appendingPathComponent("home").path, "--email", "ann@example.org",
             "--name", "Ann", "--server", "127.0.0.1:\(port)"],
            environment: ["PARLEY_PASSWORD": "a long enough password"])
        #expect(register.status != 0 && register.stderr.contains("not taking new accounts"), "\(register.stderr)")
    }

    @Test("a bad file or variable gets a clear error that names where, never a secret, and nothing starts")
    func badSettings() throws {
        let scratch = try TemporaryDirectory("parley-config")
        let data = scratch.url.appendingPathComponent("data")
        let cases: [(text: String, mode: Int, words: String)] = [
            ("listen: 127.0.0.1:0\nlissten: 127.0.0.1:0\n", 0o600, "line 2: 'lissten' is not an option of 'parley server'"),
            ("max-line: lots\n", 0o600, "line 1: The value 'lots' is invalid for '--max-line"),
            ("login-timeout: 0\n", 0o600, "line 1: --login-timeout must be 1–3600 seconds"),
            ("listen: [127.0.0.1:1\n", 0o600, "is not valid YAML: line 2"),
            ("- listen\n- data\n", 0o600, "must be a mapping of option names to values"),
            ("limits:\n  max-connections: 5\n", 0o600, "line 1: 'limits' must be a value or a list of values, not a section"),
            ("max-line: 10\nmax-line: 20\n", 0o600, "'max-line' is set twice"),
            ("config: other.yaml\n", 0o600, "a configuration file cannot name another"),
            ("dev: true\n", 0o620, "may be changed by other users"),
            ("database-timeout: 5\ndatabase: true\n", 0o600, "line 2"),
            (String(repeating: "# padding\n", count: 8_000), 0o600, "larger than 64 KiB"),
        ]
        for (index, item) in cases.enumerated() {
            let config = try Self.file(item.text, in: scratch.url, name: "bad-\(index).yaml", mode: item.mode)
            let result = try ParleyBinary.run(["server", "--config", config, "--data", data.path])
            #expect(result.status != 0 && result.stderr.contains(item.words), "\(item.text): \(result.stderr)")
            #expect(!result.stdout.contains("listening"))
        }
        let missing = try ParleyBinary.run(["server", "--config", scratch.url.appendingPathComponent("nowhere.yaml").path])
        #expect(missing.status != 0 && missing.stderr.contains("cannot read the configuration file"), "\(missing.stderr)")
        let directory = try ParleyBinary.run(["server", "--config", scratch.url.path])
        #expect(directory.status != 0 && directory.stderr.contains("is not a file"), "\(directory.stderr)")
        let unknown = try ParleyBinary.run(["server", "--data", data.path], environment: ["PARLEY_SERVER_LISEN": "x"])
        #expect(unknown.status != 0 && unknown.stderr.contains("environment variable PARLEY_SERVER_LISEN: 'lisen' is not an option"), "\(unknown.stderr)")
        let noFile = try ParleyBinary.run(["server", "--config"])
        #expect(noFile.status != 0 && noFile.stderr.contains("--config needs the path"), "\(noFile.stderr)")

        // A password in a database URL is never repeated, whichever way the URL is wrong.
        for url in ["postgres://ann:hunter2secret@db.example:99999/parley", "mysql://ann:hunter2secret@db/parley"] {
            let config = try Self.file("database: \"\(url)\"\n", in: scratch.url, name: "db.yaml")
            let result = try ParleyBinary.run(["server", "--config", config, "--check"])
            #expect(result.status != 0 && !result.stderr.isEmpty)
            #expect(!(result.stdout + result.stderr).contains("hunter2secret"), "\(result.stderr)")
            let printed = try ParleyBinary.run(["server", "--config", config, "--print-config"])
            #expect(!(printed.stdout + printed.stderr).contains("hunter2secret"), "\(printed.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: data.path), "nothing started, nothing was created")
    }
}
