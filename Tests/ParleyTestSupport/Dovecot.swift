import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real Dovecot 2.3 IMAP server for one suite: its own configuration, users, TLS certificate and maildirs in
/// a temporary directory, on free loopback ports, started unprivileged (as the `dovecot` user when the tests
/// run as root, else as the tests' own user) and stopped when the last reference goes.
public final class Dovecot: @unchecked Sendable {
    let directory: TemporaryDirectory
    let root: URL
    public let imapsPort: Int
    public let imapPort: Int
    /// The server's certificate (PEM), for `--ca`.
    public let certificate: String
    /// Its private key (PEM), for another test server that should present the same certificate.
    public let certificateKey: String
    private let pid: pid_t
    private let runAs: [String]

    struct Failed: Error, CustomStringConvertible { let description: String }

    public init(users: [String: String]) throws {
        directory = try TemporaryDirectory("parley-dovecot")
        root = directory.url.appendingPathComponent("dovecot")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("run"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("mail"), withIntermediateDirectories: true)
        let (cert, key) = try TestCertificate.make(in: root, name: "imap")
        certificate = cert
        certificateKey = key
        imapsPort = try LocalPorts.free()
        var port = try LocalPorts.free()
        while port == imapsPort { port = try LocalPorts.free() }
        imapPort = port
        let user: String
        if geteuid() == 0 {
            // Dovecot refuses to run its login processes as root: the package's own unprivileged user runs it.
            user = "dovecot"
            runAs = ["/usr/bin/setpriv", "--reuid=dovecot", "--regid=dovecot", "--clear-groups"]
            _ = chmod(directory.url.path, 0o711)
        } else {
            user = String(cString: getpwuid(geteuid()).pointee.pw_name)
            runAs = []
        }
        let passwords = users.map { "\($0.key):{PLAIN}\($0.value)::::::" }.joined(separator: "\n") + "\n"
        try passwords.write(to: root.appendingPathComponent("users"), atomically: true, encoding: .utf8)
        let path = root.path
        let configuration = """
            base_dir = \(path)/run
            state_dir = \(path)/state
            instance_name = parley-test-\(imapsPort)
            log_path = \(path)/dovecot.log
            protocols = imap
            listen = 127.0.0.1
            default_login_user = \(user)
            default_internal_user = \(user)
            default_internal_group = \(user)
            first_valid_uid = 1
            ssl = yes
            ssl_cert = <\(cert)
            ssl_key = <\(key)
            auth_mechanisms = plain
            disable_plaintext_auth = yes
            passdb {
              driver = passwd-file
              args = scheme=PLAIN username_format=%u \(path)/users
            }
            userdb {
              driver = static
              args = uid=\(user) gid=\(user) home=\(path)/mail/%u
            }
            mail_location = maildir:\(path)/mail/%u/Maildir
            service imap-login {
              chroot =
              inet_listener imap {
                port = \(imapPort)
              }
              inet_listener imaps {
                port = \(imapsPort)
                ssl = yes
              }
            }
            service anvil {
              chroot =
            }

            """
        try configuration.write(to: root.appendingPathComponent("dovecot.conf"), atomically: true, encoding: .utf8)
        if geteuid() == 0 {
            _ = try ToolRun.run("/bin/chown", ["-R", "dovecot:dovecot", path])
        }
        let arguments = Array(runAs.dropFirst()) + (runAs.isEmpty ? [] : ["/usr/sbin/dovecot"]) + ["-F", "-c", "\(path)/dovecot.conf"]
        pid = try Self.spawn(runAs.first ?? "/usr/sbin/dovecot", arguments)
        let deadline = Date().addingTimeInterval(20)
        while !(LocalPorts.accepts(imapsPort) && LocalPorts.accepts(imapPort)) {
            guard Date() < deadline, kill(pid, 0) == 0 else {
                throw Failed(description: "Dovecot did not start: \(log())")
            }
            usleep(50_000)
        }
    }

    deinit {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// Starts the server with default signal handling and nothing blocked: a child inherits the test process's
    /// blocked signals through Foundation's Process, and Dovecot's master then never sees SIGTERM.
    private static func spawn(_ executable: String, _ arguments: [String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        SpawnActions.closeInheritedDescriptors(&actions)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw Failed(description: "cannot start \(executable): error \(result)") }
        return pid
    }

    /// Dovecot's log so far (for failure messages).
    public func log() -> String {
        (try? String(contentsOf: root.appendingPathComponent("dovecot.log"), encoding: .utf8)) ?? "(no log)"
    }

    /// Runs `doveadm` against this instance, as the user Dovecot runs as.
    @discardableResult
    public func doveadm(_ arguments: [String], input: [UInt8]? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: runAs.first ?? "/usr/bin/doveadm")
        process.arguments = Array(runAs.dropFirst()) + (runAs.isEmpty ? [] : ["/usr/bin/doveadm"]) + ["-c", "\(root.path)/dovecot.conf"] + arguments
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = outputPipe
        try ProcessLaunch.start(process)
        if let input { try? inputPipe.fileHandleForWriting.write(contentsOf: Data(input)) }
        try inputPipe.fileHandleForWriting.close()
        let output = outputPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw Failed(description: "doveadm \(arguments.joined(separator: " ")): \(text)") }
        return text
    }

    /// Delivers `eml` into `folder` of `user` (doveadm save: Dovecot writes it, not Parley).
    public func save(_ eml: String, user: String, folder: String = "INBOX") throws {
        try doveadm(["save", "-u", user, "-m", folder], input: Array(eml.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n").utf8))
    }
}
