import ArgumentParser
import Foundation
import ParleyClient
import ParleyVault
import ParleyTerminal

/// Options every account command shares.
struct ClientOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Parley's data directory (default ~/.parley, or PARLEY_HOME).", valueName: "dir"))
    var home: String?

    @Option(help: ArgumentHelp("Which account, when this home has several.", valueName: "email"))
    var account: String?

    @Flag(help: "Print machine-readable JSON.")
    var json = false

    /// The home directory to use.
    var homeURL: URL { ParleyHome.url(home) }

    /// The account's e-mail: `--account`, or the only account in the home.
    func accountEmail() throws -> String {
        if let account { return account.lowercased() }
        let accounts = AccountHome.accounts(in: homeURL)
        switch accounts.count {
        case 0: throw CommandFailure(Self.unreadable(homeURL) ?? "no account in \(homeURL.path); create one with 'parley account register'")
        case 1: return accounts[0]
        default: throw CommandFailure("this home has several accounts (\(accounts.joined(separator: ", "))); pick one with --account")
        }
    }

    /// Why `home` (or its `accounts` directory) cannot be looked into, when it is not simply empty or missing.
    static func unreadable(_ home: URL) -> String? {
        for directory in [home, home.appendingPathComponent("accounts", isDirectory: true)] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else { return nil }
            if !isDirectory.boolValue { return "\(directory.path) is a file, not a directory; give --home the directory Parley keeps its data in" }
            if !FileManager.default.isReadableFile(atPath: directory.path) || !FileManager.default.isExecutableFile(atPath: directory.path) {
                return "cannot read \(directory.path): permission denied (check its owner and permissions)"
            }
        }
        return nil
    }

    /// Opens the account, asking for what its vault needs: its PIN (PARLEY_PIN or a prompt), or the TPM
    /// (and the TPM key's PIN, when it has one).
    func open() throws -> ParleyClient {
        try open(access: try vaultAccess())
    }

    /// What unlocks the account's vault.
    func vaultAccess() throws -> MainKeyAccess {
        try VaultAccess.access(home: homeURL, email: try accountEmail())
    }

    /// Opens the account with `access`.
    func open(access: MainKeyAccess, autolockAfter: TimeInterval = 300) throws -> ParleyClient {
        let email = try accountEmail()
        do {
            return try ParleyClient.open(home: homeURL, email: email, access: access, autolockAfter: autolockAfter)
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// Opens the account, connects, runs `body`, disconnects. With `reconnect` a dropped connection is
    /// re-established while `body` runs (long transfers resume). Without `requireServer`, `body` runs
    /// unconnected when the server cannot be reached (what this device knows is enough for it).
    func withClient<T>(reconnect: Bool = false, requireServer: Bool = true, _ body: (ParleyClient) async throws -> T) async throws -> T {
        let client = try open()
        do {
            try await client.connect(reconnect: reconnect)
        } catch {
            if requireServer { throw CommandFailure("\(error)") }
        }
        do {
            let result = try await body(client)
            await client.disconnect()
            return result
        } catch {
            await client.disconnect()
            throw error is CommandFailure ? error : CommandFailure("\(error)")
        }
    }

    /// Prints `value` as JSON when --json, else `text()`.
    func output<V: Encodable>(_ value: V, _ text: () -> String) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.userInfo[Attachment.redactSecrets] = true   // file keys stay out of scripts' output
            Console.json(String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self))
        } else {
            let line = text()
            if !line.isEmpty { Self.say(line) }
        }
    }

    /// Writes a line to standard output at once (unbuffered) through `Console`, which shows any control
    /// characters in it instead of letting them act on the terminal.
    static func say(_ line: String) {
        Console.out(line)
    }
}

extension SecretInput {
    /// The vault PIN from PARLEY_PIN, else a terminal prompt.
    static func pin(prompt: String) throws -> String {
        if let value = ProcessInfo.processInfo.environment["PARLEY_PIN"], !value.isEmpty { return value }
        guard isatty(STDIN_FILENO) == 1 else {
            throw CommandFailure("the vault needs its PIN: set PARLEY_PIN or run in a terminal")
        }
        return try readHidden(prompt: prompt)
    }
}
