import Foundation
import ParleyServer
import Testing

/// Accounts made the way a user makes them: `parley account register` and `confirm` with the code the
/// embedded server logged.
enum CLIAccounts {
    static let environment = ["PARLEY_PASSWORD": "a long enough password"]

    /// Registers and confirms `name@example.org` in `home`.
    static func register(_ name: String, home: URL, server: EmbeddedServer) async throws {
        let email = "\(name)@example.org"
        let registered = try await ParleyBinary.runDetached(
            ["account", "register", "--home", home.path, "--email", email, "--name", name, "--server", "127.0.0.1:\(server.port)"],
            environment: environment)
        #expect(registered.status == 0, "\(registered.stderr)")
        #expect(registered.stdout.contains("parley account confirm CODE"))
        let code = try #require(server.latestCode(for: email))
        let confirmed = try await ParleyBinary.runDetached(["account", "confirm", "--home", home.path, code])
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        #expect(confirmed.stdout.contains("Confirmed: \(email)"))
    }
}
