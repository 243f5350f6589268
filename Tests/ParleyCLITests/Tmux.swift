import Foundation
import ParleyTestSupport

/// A private tmux server (its own socket) that runs programs in a real terminal for tests: type into
/// them with `send-keys`, read the screen with `capture-pane`.
struct Tmux: Sendable {
    /// The socket name, unique per test so parallel tests and a user's own tmux never meet.
    let socket = "parley-test-\(UUID().uuidString.prefix(8))"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether tmux is installed (scripts/test-tools.txt lists it).
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Runs `tmux -L socket arguments…` on a dispatch thread (never a cooperative one) and returns stdout.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        try await Self.tool("/usr/bin/tmux", ["-L", socket] + arguments)
    }

    /// Runs a program to completion on a thread of its own (`Blocking`); fails on a non-zero exit.
    static func tool(_ path: String, _ arguments: [String]) async throws -> String {
        try await Blocking.run { try spawn(path, arguments) }
    }

    /// posix_spawn and waitpid rather than Foundation's `Process`: `tmux new-session` forks the tmux
    /// server, which inherits the descriptor `Process` watches to learn that its child ended, so
    /// `waitUntilExit` would never return. Output goes to a file for the same reason (a pipe's write
    /// end would stay open in the server).
    private static func spawn(_ path: String, _ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-out-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        SpawnActions.closeInheritedDescriptors(&actions)  // no test server's socket goes along
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil   // a test run from inside tmux must not talk to the user's server
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // The child starts with no signals blocked and default handlers: a test thread's mask (NIO and
        // Dispatch block some) would otherwise be inherited by tmux and its server, which rely on signals.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let started = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard started == 0 else { throw Failure(description: "cannot start \(path): error \(started)") }
        var status: Int32 = 0
        // A tmux command that does not end in 60 s is a failure to report, not a test run that hangs.
        let deadline = Date().addingTimeInterval(60)
        while true {
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid || (ended < 0 && errno != EINTR) { break }
            if Date() > deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                throw Failure(description: "\(path) \(arguments.joined(separator: " ")) did not finish in 60 s")
            }
            usleep(20_000)
        }
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        // Exited normally with 0: the low 7 bits (the signal) and the exit code byte are all zero.
        guard status == 0 else {
            throw Failure(description: "\(path) \(arguments.joined(separator: " ")) failed (\(status)): \(text)")
        }
        return text
    }

    /// Starts `command` (a shell command line) in a detached session of `width` × `height`.
    func start(_ session: String, width: Int, height: Int, command: String) async throws {
        try await run(["new-session", "-d", "-s", session, "-x", String(width), "-y", String(height), command])
    }

    /// Types literal text (no key names interpreted).
    func type(_ session: String, _ text: String) async throws {
        try await run(["send-keys", "-t", session, "-l", text])
    }

    /// Presses named keys (`Enter`, `Tab`, `C-c`, `PPage`).
    func press(_ session: String, _ keys: String...) async throws {
        try await run(["send-keys", "-t", session] + keys)
    }

    /// The screen as it is now, one string per row (tmux trims trailing spaces).
    func capture(_ session: String) async throws -> [String] {
        try await run(["capture-pane", "-p", "-t", session]).components(separatedBy: "\n")
    }

    /// A tmux format value for the pane (`#{alternate_on}`, `#{pane_pid}`).
    func value(_ session: String, _ format: String) async throws -> String {
        try await run(["display-message", "-p", "-t", session, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen until `condition` holds; fails with the last screen after `seconds`.
    @discardableResult
    func waitFor(_ session: String, _ what: String, seconds: Double = 60, _ condition: ([String]) -> Bool) async throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var screen: [String] = []
        while Date() < deadline {
            screen = try await capture(session)
            if condition(screen) { return screen }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "timed out waiting for \(what); the screen was:\n" + screen.joined(separator: "\n"))
    }

    /// Stops the private server and everything in it.
    func stop() async {
        // `kill-server` alone was seen to leave the server running here; end it by its pid as well.
        let pid = (try? await run(["display-message", "-p", "#{pid}"]))?.trimmingCharacters(in: .whitespacesAndNewlines)
        // The panes' programs (the shells' final `sleep`) too, so nothing outlives the test.
        let panes = (try? await run(["list-panes", "-a", "-F", "#{pane_pid}"]))?.split(separator: "\n").compactMap { Int32($0) } ?? []
        for pane in panes where pane > 1 { kill(pane, SIGTERM) }
        _ = try? await run(["kill-server"])
        if let pid, let number = Int32(pid), number > 1 { kill(number, SIGTERM) }
        try? FileManager.default.removeItem(atPath: "/tmp/tmux-\(getuid())/\(socket)")
    }
}
