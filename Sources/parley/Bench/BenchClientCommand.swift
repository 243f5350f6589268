import ArgumentParser
import ParleyBench
import ParleyServer

/// `parley bench client`: what a person feels — send-to-screen latency and cold start with a long history.
struct BenchClientLatency: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Measure end-to-end client latency (send → the peer has decrypted it) and cold start with a long history.",
        discussion: """
            An embedded server on 127.0.0.1 (SQLite, durable) and two ParleyClients with their own homes. Latency runs \
            one message at a time from ann's send() until bob's client emits the decrypted message (encryption, the \
            server's durable store, the notification (with the envelope pushed in it when short), decryption and bob's sealed local write all included). \
            Cold start then fills bob's history to --history messages and times opening the account and showing the \
            newest 50 messages, offline and with a connect + catch-up.
            """)

    @Option(help: "Messages timed one at a time.") var messages = 300
    @Option(help: "Messages in the history for the cold-start figure.") var history = 10_000
    @Option(help: "The embedded server's --push-limit (0: every message is fetched after a hint, as before pushes).")
    var pushLimit = ConnectionLimits().pushedEnvelopeLimit

    func run() async throws {
        try await ClientLatency(messages: messages, history: history, pushLimit: pushLimit).run()
    }
}
