import Foundation
import Logging

/// Delivers e-mail verification codes.
public protocol VerificationCodeSender: Sendable {
    /// Sends `code` to `email`; throws when it cannot be delivered.
    func send(code: String, to email: String) async throws

    /// Tells the owner of `email` that someone tried to register it again (no code: nothing to confirm).
    func sendRegistrationAttempt(to email: String) async throws
}

/// Development delivery: the code goes to the server log and to `dev-codes.log` in the data
/// directory, so scripts and tests can register without mail. Never use it in production.
public struct DevelopmentCodeSender: VerificationCodeSender {
    let file: URL
    let logger: Logger

    /// Appends codes to `file` and logs them.
    public init(file: URL, logger: Logger) {
        self.file = file
        self.logger = logger
    }

    public func send(code: String, to email: String) async throws {
        logger.notice("development verification code", metadata: ["email": "\(email)", "code": "\(code)"])
        try append("\(email) \(code)\n")
    }

    /// A comment line in the code log (`# EMAIL registration-attempt`), which no code reader takes for a code.
    public func sendRegistrationAttempt(to email: String) async throws {
        logger.notice("development notice: someone tried to register an existing address", metadata: ["email": "\(email)"])
        try append("# \(email) registration-attempt\n")
    }

    private func append(_ text: String) throws {
        let line = Data(text.utf8)
        if !FileManager.default.fileExists(atPath: file.path) {
            _ = FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: line)
    }
}
