import Foundation
import ParleyTestSupport
import Testing

/// The SDK example (Examples/EchoBot, docs/SDK.md) against a default server, with a person using `parley`.
@Suite("The echo bot example", .serialized, .offThePool)
struct EchoBotTests {
    static func bot(_ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        let process = try LiveProcess(arguments, environment: environment, executable: "ParleyEchoBot")
        #expect(await process.exitStatus() == 0, "\(process.text)")
        return process.text
    }

    @Test("a bot made with the SDK registers, answers a stranger's message, and sends a file that arrives whole")
    func echoBotAnswers() async throws {
        let scene = try await CLIScene.start("echo-bot", people: ["ann"])
        defer { Task { try? await scene.finish() } }
        let home = scene.root.appendingPathComponent("bot").path, email = "bot@example.org"
        let registered = try await Self.bot(["register", "--home", home, "--email", email, "--server", "127.0.0.1:\(scene.server.port)"],
                                            environment: ["PARLEY_PASSWORD": "the bot's long password"])
        #expect(registered.contains("registered"))
        let code = try #require(scene.server.latestCode(for: email))
        #expect(try await Self.bot(["confirm", "--home", home, "--email", email, code]).contains("confirmed"))
        let file = scene.root.appendingPathComponent("handout.bin")
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        try Data(bytes).write(to: file)
        let running = try LiveProcess(["run", "--home", home, "--email", email, "--file", file.path], executable: "ParleyEchoBot")
        defer { running.kill() }
        _ = try await running.waitFor("listening")

        let ann = scene.home("ann").path
        #expect(try await scene.run(["send", "--home", ann, "--to", email, "hello bot \u{1B}[31m"]).status == 0)
        _ = try await running.waitFor("answered message")
        #expect(!running.text.contains("hello bot"), "the bot prints ids, not what people wrote")
        var shown = ""
        for _ in 0..<100 where !shown.contains("echo: hello bot") {
            shown += try await scene.run(["read", "--home", ann]).stdout
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(shown.contains("Echo bot: ↪ 1 echo: hello bot ␛[31m"), "a reply to her message, its escape shown, not obeyed: \(shown)")
        #expect(!shown.contains("\u{1B}"), "remote text reaches ann's terminal escaped")

        #expect(try await scene.run(["send", "--home", ann, "--to", email, "/file"]).status == 0)
        shown = ""
        for _ in 0..<100 where !shown.contains("handout.bin") {
            shown += try await scene.run(["read", "--home", ann]).stdout
            try await Task.sleep(for: .milliseconds(100))
        }
        let id = try #require(shown.split(separator: "\n").first { $0.contains("handout.bin") }
            .flatMap { $0.firstMatch(of: /parley download (\d+)/)?.1 }, "\(shown)")
        let saved = scene.root.appendingPathComponent("from-bot.bin")
        let download = try await scene.run(["download", "--home", ann, String(id), "-o", saved.path])
        #expect(download.status == 0, "\(download.stderr)")
        #expect(try Data(contentsOf: saved) == Data(bytes))
    }
}
