import Foundation
import Logging
@testable import ParleyServer
import Testing

/// `ServerLaunch`, the start-up `parley server` runs: what must hold before a server serves anything.
@Suite struct ServerLaunchTests {
    struct NoMailer: Error {}

    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-launch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("a data directory another server holds is refused before anything else happens")
    func lockedDirectory() async throws {
        let data = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: data) }
        let held = try DataDirectoryLock(data)
        defer { held.release() }
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, dataDirectory: data)
        await #expect(throws: ServerLaunch.Failure.self) {
            try await ServerLaunch.run(configuration, metrics: nil, codeSender: { _, _ in
                Issue.record("the code sender was asked for although the directory is locked")
                throw NoMailer()
            }, announce: { _ in })
        }
    }

    @Test("a refused code sender stops the start, creates the directory owner-only and releases its lock")
    func refusedCodeSender() async throws {
        let parent = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: parent) }
        let data = parent.appendingPathComponent("data")
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, dataDirectory: data)
        for _ in 0..<2 {
            await #expect(throws: NoMailer.self) {
                try await ServerLaunch.run(configuration, metrics: nil, codeSender: { directory, _ in
                    #expect(directory == data)
                    throw NoMailer()
                }, announce: { _ in Issue.record("announced a server that did not start") })
            }
        }
        let mode = try FileManager.default.attributesOfItem(atPath: data.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        let lock = try DataDirectoryLock(data)
        lock.release()
    }

    @Test("codes go to the development log, or a mailer must be configured")
    func codeSenders() async throws {
        let directory = URL(fileURLWithPath: "/srv/parley")
        let logger = Logger(label: "test")
        let development = try await ServerLaunch.codeSender(development: true, smtp: nil, directory: directory, logger: logger)
        #expect(development is DevelopmentCodeSender)
        let refused = await #expect(throws: ServerLaunch.Failure.self) {
            _ = try await ServerLaunch.codeSender(development: false, smtp: nil, directory: directory, logger: logger)
        }
        #expect(refused?.description.contains("--dev to receive codes in /srv/parley/dev-codes.log and the log.") == true)
    }
}
