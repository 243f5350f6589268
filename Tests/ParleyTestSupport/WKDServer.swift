import Foundation

/// A Web Key Directory over HTTPS for tests (scripts/test-fixtures/wkd_server.py): serves `root/HOST/PATH` for
/// the request's Host, so one server plays several domains, with hostile hosts on demand.
public final class WKDServer: Sendable {
    public let port: Int
    private let fixture: PythonFixture

    /// `bigHosts` answer 300 KiB; `anyFile` hosts answer that file for every path; `status` hosts that status.
    public static func start(root: URL, certificate: (cert: String, key: String), bigHosts: [String] = [],
                             anyFile: [String: String] = [:], status: [String: Int] = [:]) async throws -> WKDServer {
        var arguments = ["--root", root.path, "--cert", certificate.cert, "--key", certificate.key]
        arguments += bigHosts.flatMap { ["--big-host", $0] }
        arguments += anyFile.flatMap { ["--any-file", "\($0.key)=\($0.value)"] }
        arguments += status.flatMap { ["--status", "\($0.key)=\($0.value)"] }
        return WKDServer(try await PythonFixture.start("wkd_server", arguments: arguments, hint: "is python3 installed?"))
    }

    private init(_ fixture: PythonFixture) {
        self.fixture = fixture
        port = fixture.port
    }

    public func stop() { fixture.stop() }
}
