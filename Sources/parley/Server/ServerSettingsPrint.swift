import Foundation
import ParleyServer

extension Parley.Server {
    /// `--print-config`: every setting this command line (with its file and environment) gives, as the YAML
    /// of `--config` — what the server would run with, and a starting point for a configuration file. A
    /// password in a database URL is never shown.
    func printedSettings() -> String {
        func text(_ value: String?) -> String { value.map(quoted) ?? "null" }
        let database = (database ?? ProcessInfo.processInfo.environment["PARLEY_DATABASE_URL"]).flatMap { $0.isEmpty ? nil : $0 }
        let lines: [(String, String)] = [
            ("listen", text(listen)),
            ("data", text(data)),
            ("database", database.map { (try? PostgresURL($0)).map { quoted("\($0)") } ?? "(not a valid URL)" } ?? "null"),
            ("database-timeout", "\(databaseTimeout)"),
            ("tls-cert", text(tlsCert)),
            ("tls-key", text(tlsKey)),
            ("dev", "\(dev)"),
            ("registration", text((registration ?? (dev ? .open : .invite)).rawValue)),
            ("smtp", text(smtp.server)),
            ("smtp-security", text(smtp.security)),
            ("smtp-from", text(smtp.from)),
            ("smtp-user", text(smtp.user)),
            ("smtp-password-file", text(smtp.passwordFile)),
            ("smtp-ca", text(smtp.ca)),
            ("max-line", "\(maxLine)"),
            ("max-line-before-login", "\(limits.maxLineBeforeLogin)"),
            ("push-limit", "\(limits.pushLimit)"),
            ("login-timeout", "\(loginTimeout)"),
            ("max-connections", "\(limits.maxConnections)"),
            ("max-connections-per-address", "\(limits.maxConnectionsPerAddress)"),
            ("max-unauthenticated", "\(limits.maxUnauthenticated)"),
            ("max-pairing", "\(limits.maxPairing)"),
            ("max-pairing-per-address", "\(limits.maxPairingPerAddress)"),
            ("pairing-timeout", "\(limits.pairingTimeout)"),
            ("partial-line-budget", "\(limits.partialLineBudget)"),
            ("metrics", text(metrics)),
            ("retention-days", "\(retentionDays)"),
            ("sweep-minutes", "\(sweepMinutes)"),
            ("requests-per-second", "\(requestsPerSecond)"),
            ("account-requests-per-second", "\(accountRequestsPerSecond)"),
            ("registrations-per-minute", "\(registrationsPerMinute)"),
        ]
        return "# parley server settings (docs/OPERATIONS.md §11); null is unset\n"
            + lines.map { "\($0.0): \($0.1)\n" }.joined()
    }

    /// A YAML double-quoted string (JSON's escapes are YAML's).
    private func quoted(_ value: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
