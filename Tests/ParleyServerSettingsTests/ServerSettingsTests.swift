import Foundation
@testable import ParleyServerSettings
import Testing

/// How `parley server`'s settings from a file, the environment and the command line become one argument
/// list, and how a bad one is refused naming where it came from — without ever repeating a secret.
@Suite struct ServerSettingsTests {
    /// A `problem` that accepts everything.
    static func fine(_: [String]) -> String? { nil }

    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parley-settings-\(UUID().uuidString).yaml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func otherCommandsAndSubcommandsAreLeftAlone() throws {
        let environment = ["PARLEY_SERVER_DEV": "true"]
        #expect(try ServerSettings.arguments(["send", "--to", "a"], environment: environment, subcommands: ["admin"], problem: Self.fine) == ["send", "--to", "a"])
        #expect(try ServerSettings.arguments(["server", "admin", "stats"], environment: environment, subcommands: ["admin"], problem: Self.fine)
                == ["server", "admin", "stats"])
        #expect(try ServerSettings.arguments([], environment: environment, subcommands: [], problem: Self.fine) == [])
    }

    @Test func theFileThenTheEnvironmentThenTheCommandLine() throws {
        let path = try Self.file("listen: 127.0.0.1:1\ndata: /srv/parley\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let environment = ["PARLEY_SERVER_LISTEN": "127.0.0.1:2", "PARLEY_SERVER_DEV": "true", "PARLEY_SERVER_CONFIG": path, "OTHER": "x"]
        let arguments = try ServerSettings.arguments(["server", "--listen", "127.0.0.1:3"], environment: environment, subcommands: [],
                                                     problem: Self.fine)
        #expect(arguments == ["server", "--listen", "127.0.0.1:1", "--data", "/srv/parley", "--dev", "--listen", "127.0.0.1:2",
                              "--listen", "127.0.0.1:3"])
        // --config on the command line wins over the variable, in either spelling, and is taken out.
        for spelling in [["--config", path], ["--config=\(path)"]] {
            let given = try ServerSettings.arguments(["server"] + spelling, environment: [:], subcommands: [], problem: Self.fine)
            #expect(given == ["server", "--listen", "127.0.0.1:1", "--data", "/srv/parley"])
        }
        #expect(throws: ServerConfigError("--config needs the path of a configuration file")) {
            try ServerSettings.arguments(["server", "--config"], environment: [:], subcommands: [], problem: Self.fine)
        }
    }

    @Test func aBadSettingIsNamedByItsOriginAndSecretsAreNotRepeated() throws {
        #expect(throws: ServerConfigError("environment variable PARLEY_SERVER_CONFIG_X: a configuration file cannot name another")) {
            try ServerSettings.check(Setting(key: "config", values: [.text("x")], origin: "environment variable PARLEY_SERVER_CONFIG_X"),
                                     problem: Self.fine)
        }
        for key in ["Listen", "-x", "a b", "\u{1B}[2J", ""] {
            #expect(throws: ServerConfigError.self) { try ServerSettings.check(Setting(key: key, values: [], origin: "o"), problem: Self.fine) }
        }
        #expect(throws: ServerConfigError("o: 'listn' is not an option of 'parley server' (see 'parley server --help')")) {
            try ServerSettings.check(Setting(key: "listn", values: [.text("x")], origin: "o"), problem: { _ in "Unknown option '--listn'" })
        }
        let url = "postgres://u:hunter2@db/parley"
        let refused = #expect(throws: ServerConfigError.self) {
            try ServerSettings.check(Setting(key: "database", values: [.text(url)], origin: "o"), problem: { _ in "cannot read \(url)" })
        }
        #expect(refused?.description == "o: cannot read …")
        #expect(throws: Never.self) { try ServerSettings.check(Setting(key: "dev", values: [.flag(true)], origin: "o"), problem: Self.fine) }
    }

    @Test func environmentVariablesAreOptionsInOrder() throws {
        let settings = try ServerSettings.fromEnvironment(["PARLEY_SERVER_TLS_CERT": "/c", "PARLEY_SERVER_DEV": "false", "PARLEY_SERVER_CONFIG": "/f",
                                                           "PARLEY_SERVERX": "y", "HOME": "/h"])
        #expect(settings.map(\.key) == ["dev", "tls-cert"])
        #expect(settings[0].values == [.flag(false)])
        #expect(settings[1].origin == "environment variable PARLEY_SERVER_TLS_CERT")
    }
}
