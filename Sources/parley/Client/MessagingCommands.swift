import ArgumentParser
import Foundation
import ParleyChatUI
import ParleyClient
import ParleyTerminal

extension Parley {
    /// `parley send`.
    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "Send a message or a file to a person (--to) or a conversation (--conversation).")
        @OptionGroup var options: ClientOptions
        @Option(help: "The person's e-mail (opens the direct conversation).") var to: String?
        @Option(help: "A conversation id (see 'parley conversations').") var conversation: Int64?
        @Option(help: "Reply to this message id.") var replyTo: Int64?
        @OptionGroup var attachment: FileSendOptions
        @Argument(help: "The text (with --file: an optional caption); - reads it from standard input.") var text: String?

        func validate() throws {
            guard (to == nil) != (conversation == nil) else { throw ValidationError("give exactly one of --to or --conversation") }
            guard text != nil || attachment.file != nil else { throw ValidationError("give the text to send, or --file PATH") }
            guard attachment.file == nil || replyTo == nil else { throw ValidationError("--reply-to cannot be combined with --file") }
            // The same bound as text from standard input: longer text goes as a file.
            if let text, text != "-", text.utf8.count > StandardInputText.limit {
                throw ValidationError("the text is longer than 64 KiB, longer than a message may be: send it as a file (--file PATH)")
            }
        }

        func run() async throws {
            let outcome: SendOutcome
            let started = Int64(Date().timeIntervalSince1970 * 1000)
            var client: ParleyClient?
            if attachment.file != nil {
                outcome = try await options.withClient(reconnect: true) { opened in
                    client = opened
                    let id = try await OfflineSession(client: opened, offline: nil).conversation(for: target)
                    let caption = try text == "-" ? StandardInputText.read() : text
                    return try await attachment.send(attachment.file!, caption: caption, to: id, client: opened)
                }
            } else {
                (outcome, client) = try await sendText(text == "-" ? StandardInputText.read() : text!)
            }
            switch outcome {
            case .sent(let message):
                options.output(message) { "Sent message \(message.id) to conversation \(message.conversationID)." }
                // A key that changed while this device was away is learnt as it connects: said here, not only in `read`.
                let warnings = (try? client?.history.messages(in: message.conversationID)) ?? []
                for warning in warnings where warning.kind == Message.keyChangeKind && warning.timestamp >= started {
                    Console.err(warning.text)
                }
            case .queued(let id):
                options.output(["queued": id]) { "Queued: will be sent when the server is reachable (the next parley command that connects sends it)." }
            }
        }

        /// Where the message goes: the conversation given, or the direct one with --to.
        private var target: OfflineSession.Target { if let conversation { .conversation(conversation) } else { .person(to!) } }

        /// Sends the text; without the server it goes into the outbox of a conversation this device knows.
        private func sendText(_ text: String) async throws -> (SendOutcome, ParleyClient) {
            let session = try await options.openOnlineOrOffline()
            if let offline = session.offline { Console.err("Offline: \(offline).") }
            do {
                let outcome = try await session.send(text, to: target, replyTo: replyTo)
                await session.client.disconnect()
                return (outcome, session.client)
            } catch {
                await session.client.disconnect()
                throw CommandFailure("\(error)")
            }
        }
    }

    /// `parley read`.
    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "read", abstract: "Fetch new messages and show a conversation (or everything new).")
        @OptionGroup var options: ClientOptions
        @Option(help: "Show this conversation's history.") var conversation: Int64?
        @Option(help: "How many messages of history.") var limit = 50
        @Flag(help: "Keep running and print messages as they arrive (Ctrl-C to stop).") var follow = false

        func validate() throws {
            guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 10000 messages") }
        }

        func run() async throws {
            // `parley account lock` from elsewhere: following needs the key, so it ends rather than waits
            // locked. Watched before the account opens: from then on the lock file names this process and a
            // request may come at once, which SIGUSR1's default action would answer by killing it silently.
            let lockRequest = follow ? Self.endOnLockRequest() : nil
            defer { lockRequest?.cancel() }
            let client = try options.open()
            let follower = MessageFollower(client: client, conversation: conversation)
            let offline: String?
            // Without the server a conversation's history still is on this device; following waits for it.
            do { offline = try await ServerReach.connect(client, reconnect: follow, catchUp: false) } catch { throw CommandFailure("\(error)") }
            if let offline {
                Console.err(conversation != nil ? Offline.notice(offline)
                    : follow ? "Offline: \(offline)."
                    : "Offline: \(offline). No new messages can be fetched; 'parley read --conversation ID' shows a history.")
            }
            let reading = MessageReading(client: client, conversation: conversation, limit: limit)
            let batch: MessageReading.Batch
            do {
                batch = try await reading.first(offline: offline != nil)
            } catch {
                await client.disconnect()
                throw CommandFailure("\(error)")
            }
            let (shown, requests) = (batch.messages, batch.inRequests)
            if shown.isEmpty && requests.isEmpty && !follow && offline == nil && !options.json {
                ClientOptions.say(conversation.map { "No messages in conversation \($0) yet." } ?? "No new messages.")
            }
            for message in shown { await show(message, client) }
            do { try reading.shown(batch) } catch { throw CommandFailure("\(error)") }
            // A message request's messages wait in 'parley requests' and are only announced here (docs/CLIENT.md §5).
            for (conversation, count) in requests.sorted(by: { $0.key < $1.key }) where !options.json {
                ClientOptions.say("\(count) new in message request \(conversation): see 'parley requests' to read it and answer.")
            }
            // What was shown is read: the read mark moves and senders see their read ticks. A conversation's history
            // shows all of it, so all of it is read (what was withheld from this account, too, is no longer counted).
            if offline == nil {
                if let conversation { try? await client.messageActions.markRead(conversation: conversation) } else { await client.inbox.markRead(shown) }
            }
            guard follow else { return await client.disconnect() }
            do {
                if offline != nil {
                    Console.err("Waiting for the server: new messages show here once it is reachable.")
                    try await ServerReach.waitForServer(client)
                    let missed = try await follower.catchUp()
                    Console.err("Connected.")
                    for message in missed { await show(message, client) }
                }
                try await follower.follow { message in await show(message, client) }
            } catch let error as CancellationError {
                throw error
            } catch {
                throw CommandFailure("\(error)")
            }
        }

        /// One message as a line, or as JSON; line by line even into a pipe (`parley read --follow | grep …`).
        private func show(_ message: Message, _ client: ParleyClient) async {
            if options.json { options.output(message) { "" } } else { ClientOptions.say(await MessageLine.format(message, client: client)) }
        }

        /// Ends the process with a message when `parley account lock` signals it.
        private static func endOnLockRequest() -> any DispatchSourceSignal {
            signal(AccountHome.lockSignal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: AccountHome.lockSignal, queue: .global())
            source.setEventHandler {
                ClientOptions.say("Locked by 'parley account lock'; run 'parley read --follow' again to go on.")
                Foundation.exit(0)
            }
            source.resume()
            return source
        }
    }

    /// `parley conversations [list]`.
    struct ListConversations: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List your conversations (the default).")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let session = try await options.openOnlineOrOffline()
            if let offline = session.offline { Console.err(Offline.notice(offline)) }
            let all: [ConversationRow]
            do { all = try await ConversationList.rows(session.client) } catch {
                await session.client.disconnect()
                throw CommandFailure("\(error)")
            }
            await session.client.disconnect()
            // Message requests have their own list ('parley requests'); here they are only counted.
            let rows = all.filter { $0.conversation.isRequest != true }
            let requests = all.count - rows.count
            options.output(rows) {
                var lines = rows.isEmpty ? ["No conversations yet: start one with 'parley send --to EMAIL TEXT'."] : rows.map { row in
                    let c = row.conversation
                    return "\(c.id)\t\(c.kind)\t\(row.name)\t\(c.members.count) \(c.members.count == 1 ? "member" : "members")\t\(c.unread >= Conversation.unreadCountLimit ? "\(c.unread)+" : "\(c.unread)") unread\(c.favourite ? "\t★" : "")\(row.trust.map { "\t\($0.label)" } ?? "")"
                }
                if requests > 0 { lines.append("\(requests) message request\(requests == 1 ? "" : "s") waiting: see 'parley requests'.") }
                return lines.joined(separator: "\n")
            }
        }
    }

    /// `parley search`.
    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "search", abstract: "Search your decrypted history on this device (the server never sees it).")
        @OptionGroup var options: ClientOptions
        @Option(help: "Only this conversation.") var conversation: Int64?
        @Argument(help: "Words to find.") var query: String

        func run() async throws {
            let client = try options.open()
            let found: [Message]
            do { found = try client.history.search(query, in: conversation) } catch { throw CommandFailure("\(error)") }
            if options.json { return options.output(found) { "" } }
            if found.isEmpty { ClientOptions.say("Nothing found.") }
            // Each hit with where it is, the message before and after it, and how to open it full-screen.
            for hit in await SearchResults.hits(found, client: client) {
                let id = hit.message.conversationID
                ClientOptions.say("— \(hit.place) (conversation \(id); open it with 'parley chat --conversation \(id)')")
                if let before = hit.before { ClientOptions.say("    " + (await MessageLine.format(before, client: client))) }
                ClientOptions.say("  ▶ " + (await MessageLine.format(hit.message, client: client)))
                if let after = hit.after { ClientOptions.say("    " + (await MessageLine.format(after, client: client))) }
            }
        }
    }
}
