import Foundation
@testable import parley
@testable import ParleyChatUI
import ParleyServer
import ParleyTestSupport
import Testing

/// `parley chat` used the way a person uses it: in a real terminal (tmux), typing, reading the screen.
@Suite("parley chat in a terminal (tmux)", .serialized, .offThePool)
struct ChatTUITests {
    /// A shell line that shows a marker, runs the chat, then reports how it ended and whether the
    /// terminal is back in cooked mode, and stays open so the screen can be read.
    func script(_ arguments: String, environment: String = "") -> String {
        let binary = ParleyBinary.productsDirectory.appendingPathComponent("parley").path
        return "printf 'shell-before\\n'; \(environment) \(binary) chat \(arguments); echo \"chat-exited-$?\"; "
            + "if stty -a | grep -Eq -- '-icanon|-echo( |$)'; then echo tty-raw; else echo tty-sane; fi; exec sleep 600"
    }

    /// The cell column of the first `│` (where the conversation list ends).
    func separatorColumn(_ screen: [String]) -> Int? {
        guard let row = screen.first(where: { $0.contains("│") }), let index = row.firstIndex(of: "│") else { return nil }
        return DisplayWidth.cells(row[..<index])
    }

    /// The terminal after the chat ended: normal screen back, the shell's text visible, cooked mode.
    func expectRestored(_ tmux: Tmux, _ session: String, status: String) async throws {
        let after = try await tmux.waitFor(session, "the chat to exit and the tty check") { $0.contains { $0.hasPrefix("tty-") } }
        #expect(after.contains("chat-exited-\(status)"), "\(after)")
        #expect(after.contains("shell-before"))
        #expect(after.contains("tty-sane"))
        #expect(try await tmux.value(session, "#{alternate_on}") == "0")
        #expect(try await tmux.value(session, "#{cursor_flag}") == "1")
    }

    /// Runs `body` with a tmux server of its own, stopped afterwards; when `body` fails, the scene is finished too
    /// (never leave a tmux server, and chats, behind a failed test).
    func inTmux(_ scene: CLIScene, _ body: (Tmux) async throws -> Void) async throws {
        let tmux = Tmux()
        do {
            try await body(tmux)
        } catch {
            await tmux.stop()
            try await scene.finish()
            throw error
        }
        await tmux.stop()
    }

    @Test func sendReceiveResizeAndQuit() async throws {
        try #require(Tmux.isInstalled, "tmux is missing: run scripts/install-test-tools")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-tui-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        let registrar = ChatCommandTests()
        try await registrar.register("ann", home: ann, server: server)
        try await registrar.register("bob", home: bob, server: server)
        let first = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "Lunch at noon?"])
        #expect(first.status == 0, "\(first.stderr)")

        // Without a terminal the chat says what to use instead, and leaves no mess behind.
        let piped = try await ParleyBinary.runDetached(["chat", "--home", bob.path])
        #expect(piped.status == 1)
        #expect(piped.stderr.contains("needs a terminal"), "\(piped.stderr)")
        #expect(!piped.stdout.contains("\u{1B}"))

        let tmux = Tmux()
        do {
            try await drive(tmux, ann: ann, bob: bob)
        } catch {
            await tmux.stop()   // never leave a tmux server (and chats) behind a failed test
            try await server.stop()
            throw error
        }
        await tmux.stop()
        try await server.stop()
    }

    @Test func itOpensTheConversationItIsToldTo() async throws {
        try #require(Tmux.isInstalled, "tmux is missing: run scripts/install-test-tools")
        let scene = try await CLIScene.start("tui-open", people: ["ann", "bob", "carol"])
        let bob = scene.home("bob")
        #expect(try await scene.run(["send", "--home", scene.home("ann").path, "--to", "bob@example.org", "from ann"]).status == 0)
        #expect(try await scene.run(["send", "--home", scene.home("carol").path, "--to", "bob@example.org", "from carol"]).status == 0)
        try await CLIAccounts.accept(request: 1, home: bob)
        try await CLIAccounts.accept(request: 2, home: bob)
        try await inTmux(scene) { tmux in
            // Carol's is the newest, and would open by itself; --conversation 1 opens ann's.
            try await tmux.start("open", width: 100, height: 30, command: script("--home \(bob.path) --conversation 1"))
            try await tmux.waitFor("open", "ann's conversation, open") { screen in
                screen.contains { $0.contains("ann: from ann") } && screen.contains { $0.hasPrefix("▶") && $0.contains("ann") }
                    && !screen.contains { $0.contains("carol: from carol") }
            }
            try await tmux.type("open", "/quit")
            try await tmux.press("open", "Enter")
            try await expectRestored(tmux, "open", status: "0")
            // One that is not there: said, and the newest opens instead.
            try await tmux.start("missing", width: 100, height: 30, command: script("--home \(bob.path) --conversation 99"))
            try await tmux.waitFor("missing", "the notice") { screen in
                screen.contains { $0.contains("there is no conversation 99") } && screen.contains { $0.contains("carol: from carol") }
            }
        }
        try await scene.finish()
    }

    /// The person at the keyboard: everything after both accounts exist and ann has written.
    @Test func invitationsAreSaidAndAnsweredInTheChat() async throws {
        try #require(Tmux.isInstalled, "tmux is missing: run scripts/install-test-tools")
        let scene = try await CLIScene.start("tui-invite", people: ["ann", "bob"])
        let ann = scene.home("ann").path, bob = scene.home("bob")
        // One invitation waits before the chat opens: it is said once connected.
        #expect(try await scene.run(["group", "create", "--home", ann, "Climbing", "--invite", "bob@example.org"]).status == 0)
        try await inTmux(scene) { tmux in
            try await tmux.start("invite", width: 110, height: 30, command: script("--home \(bob.path)"))
            try await tmux.waitFor("invite", "the waiting invitation") { screen in
                screen.first?.hasSuffix("● connected") == true
                    && screen.contains { $0.contains("! ann invited you to group 1: /accept 1 or /decline 1") }
            }
            // One arriving while the chat is open is said as it arrives.
            #expect(try await scene.run(["group", "create", "--home", ann, "Sailing", "--invite", "bob@example.org"]).status == 0)
            try await tmux.waitFor("invite", "the new invitation") { $0.contains { $0.contains("! ann invited you to group 2: /accept 2 or /decline 2") } }
            try await tmux.type("invite", "/decline 1")
            try await tmux.press("invite", "Enter")
            try await tmux.waitFor("invite", "the decline") { $0.contains { $0.contains("! declined the invitation to group 1") } }
            try await tmux.type("invite", "/accept 2")
            try await tmux.press("invite", "Enter")
            try await tmux.waitFor("invite", "the group, joined and open") { screen in
                screen.contains { $0.contains("! joined group 2") } && screen.contains { $0.hasPrefix("▶") }
            }
            // Answering twice, or a group never offered, is refused in words.
            try await tmux.type("invite", "/accept 1")
            try await tmux.press("invite", "Enter")
            try await tmux.waitFor("invite", "the refusal") { $0.contains { $0.contains("! ") && $0.contains("invitation") && !$0.contains("declined") } }
            try await tmux.type("invite", "/quit")
            try await tmux.press("invite", "Enter")
            try await expectRestored(tmux, "invite", status: "0")
        }
        let invitations = try await scene.run(["group", "invitations", "--home", bob.path])
        #expect(invitations.stdout.contains("No invitations"), "\(invitations.stdout)\(invitations.stderr)")
        try await scene.finish()
    }

    func drive(_ tmux: Tmux, ann: URL, bob: URL) async throws {
        try await tmux.start("chat", width: 120, height: 40, command: script("--home \(bob.path)"))

        // Bob's screen: connected, the conversation with ann open, her message in it.
        var screen = try await tmux.waitFor("chat", "the conversation to show") { screen in
            screen.first?.hasSuffix("● connected") == true && screen.contains { $0.contains("ann: Lunch at noon?") }
                && screen.contains { $0.hasPrefix("▶") && $0.contains("ann") }
        }
        #expect(DisplayWidth.cells(screen[0]) == 119)   // the indicator sits at the right edge (trailing space trimmed)
        #expect(separatorColumn(screen) == ChatScreen.listWidth(for: 120))
        #expect(screen.contains { $0.contains("Tab/Shift-Tab") })

        // Typing a line sends it; ann reads it with the plain CLI.
        try await tmux.type("chat", "Sounds good")
        try await tmux.press("chat", "Enter")
        try await tmux.waitFor("chat", "the sent message") { $0.contains { $0.contains("me: Sounds good") } }
        let read = try await ParleyBinary.runDetached(["read", "--home", ann.path])
        #expect(read.stdout.contains("Sounds good"), "\(read.stdout)\(read.stderr)")
        // Ann's device confirmed delivery: the tick on bob's message turns double, live.
        try await tmux.waitFor("chat", "the delivery tick") { $0.contains { $0.contains("me: Sounds good ✓✓") } }

        // Ann replies from the command line; it arrives live, quoting what it answers.
        let reply = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--conversation", "1", "--reply-to", "2", "See you there"])
        #expect(reply.status == 0, "\(reply.stderr)")
        screen = try await tmux.waitFor("chat", "ann's reply") { $0.contains { $0.contains("ann: See you there") } }
        #expect(screen.contains { $0.contains("┌ ↪ #2 me: Sounds good") })

        // A command with a mistake says what to type; /react works on the message number.
        try await tmux.type("chat", "/react 3 👍")
        try await tmux.press("chat", "Enter")
        try await tmux.waitFor("chat", "the reaction") { $0.contains { $0.contains("👍 1") } }
        try await tmux.type("chat", "/reply x")
        try await tmux.press("chat", "Enter")
        try await tmux.waitFor("chat", "the usage hint") { $0.contains { $0.contains("! usage: /reply N text") } }

        // Up brings the last line back from history.
        try await tmux.press("chat", "Up")
        try await tmux.waitFor("chat", "history") { $0.last { !$0.isEmpty } == "> /reply x" }
        try await tmux.press("chat", "C-u")

        // Without a PIN there is nothing to unlock with, so /lock says so instead of locking the user out.
        try await tmux.type("chat", "/lock")
        try await tmux.press("chat", "Enter")
        try await tmux.waitFor("chat", "the no-PIN notice") { $0.contains { $0.contains("this vault has no PIN") } }

        // Resize: the screen is redrawn for the new size.
        try await tmux.run(["resize-window", "-t", "chat", "-x", "70", "-y", "20"])
        screen = try await tmux.waitFor("chat", "the redraw at 70×20") { screen in
            screen.first.map { DisplayWidth.cells($0) == 69 && $0.hasSuffix("● connected") } == true
                && screen.contains { $0.contains("ann: See you there") }
        }
        #expect(separatorColumn(screen) == ChatScreen.listWidth(for: 70))
        #expect(screen.allSatisfy { DisplayWidth.cells($0) <= 70 })
        #expect(screen.filter { !$0.isEmpty }.count >= 5)

        // /quit leaves the alternate screen and puts the terminal back.
        try await tmux.type("chat", "/quit")
        try await tmux.press("chat", "Enter")
        try await expectRestored(tmux, "chat", status: "0")

        // With a PIN, /lock clears the screen until the PIN is typed (shown as dots); a wrong one is refused.
        let pinned = try await ParleyBinary.runDetached(["account", "set-pin", "--home", bob.path], environment: ["PARLEY_NEW_PIN": "739146"])
        #expect(pinned.status == 0, "\(pinned.stderr)")
        try await tmux.start("ctrl-c", width: 80, height: 24, command: script("--home \(bob.path)", environment: "PARLEY_PIN=739146"))
        try await tmux.waitFor("ctrl-c", "the second chat") { screen in
            screen.first?.hasSuffix("● connected") == true && screen.contains { $0.contains("ann: See you there") }
        }
        try await tmux.type("ctrl-c", "/lock")
        try await tmux.press("ctrl-c", "Enter")
        screen = try await tmux.waitFor("ctrl-c", "the locked screen") { $0.contains { $0.contains("Type your vault PIN") } }
        #expect(!screen.contains { $0.contains("See you there") || $0.contains("ann") }, "\(screen)")
        try await tmux.type("ctrl-c", "1111")
        try await tmux.waitFor("ctrl-c", "the PIN as dots") { $0.contains { $0.contains("••••") && !$0.contains("1111") } }
        try await tmux.press("ctrl-c", "Enter")
        try await tmux.waitFor("ctrl-c", "the wrong-PIN notice") { $0.contains { $0.contains("wrong PIN") || $0.contains("attempts left") } }
        try await tmux.type("ctrl-c", "739146")
        try await tmux.press("ctrl-c", "Enter")
        try await tmux.waitFor("ctrl-c", "the unlocked conversation") { $0.contains { $0.contains("ann: See you there") } }
        // `parley account lock` from another terminal locks the running chat too.
        let lock = try await ParleyBinary.runDetached(["account", "lock", "--home", bob.path])
        #expect(lock.stdout.contains("parley chat to lock bob@example.org"), "\(lock.stdout)\(lock.stderr)")
        try await tmux.waitFor("ctrl-c", "the chat locked from outside") { $0.contains { $0.contains("Type your vault PIN") } }
        try await tmux.type("ctrl-c", "739146")
        try await tmux.press("ctrl-c", "Enter")
        try await tmux.waitFor("ctrl-c", "unlocked again") { $0.contains { $0.contains("ann: See you there") } }

        // Ctrl-C quits cleanly too.
        try await tmux.press("ctrl-c", "C-c")
        try await expectRestored(tmux, "ctrl-c", status: "0")

        // A crash (SIGABRT, as a failed precondition raises) still restores the terminal before dying.
        // Swift's backtracer (which runs after our handler) is switched off: symbolicating takes minutes under load.
        try await tmux.start("crash", width: 80, height: 24, command: script("--home \(bob.path)", environment: "SWIFT_BACKTRACE=enable=no PARLEY_PIN=739146"))
        try await tmux.waitFor("crash", "the third chat") { $0.first?.hasSuffix("● connected") == true }
        let shell = try await tmux.value("crash", "#{pane_pid}")
        let chatPID = try await Tmux.tool("/usr/bin/pgrep", ["-P", shell]).trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await Tmux.tool("/bin/kill", ["-ABRT", chatPID])
        try await expectRestored(tmux, "crash", status: "134")
    }

    /// What happened while the chat was closed shows in its ticks when it opens: one message read, a later one only
    /// delivered (every other command here is a process of its own, so no live notification told Ann).
    @Test func ticksOpenWithWhatHappenedWhileTheChatWasClosed() async throws {
        try #require(Tmux.isInstalled, "tmux is missing: run scripts/install-test-tools")
        let scene = try await CLIScene.start("tui-ticks", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob")
        #expect(try await scene.run(["send", "--home", ann.path, "--to", "bob@example.org", "Lunch at noon?"]).status == 0)
        try await CLIAccounts.accept(request: 1, home: bob)   // accepting reads what the request showed
        #expect(try await scene.run(["send", "--home", ann.path, "--to", "bob@example.org", "Or at one?"]).status == 0)
        #expect(try await scene.run(["send", "--home", bob.path, "--to", "ann@example.org", "one sec"]).status == 0)
        try await inTmux(scene) { tmux in
            try await tmux.start("ticks", width: 100, height: 30, command: script("--home \(ann.path) --conversation 1"))
            try await tmux.waitFor("ticks", "the first read, the second delivered") { screen in
                screen.contains { $0.contains("Lunch at noon?") && $0.contains("✓✓ read") }
                    && screen.contains { $0.contains("Or at one?") && $0.contains("✓✓") && !$0.contains("read") }
            }
            try await tmux.type("ticks", "/quit")
            try await tmux.press("ticks", "Enter")
            try await expectRestored(tmux, "ticks", status: "0")
        }
        try await scene.finish()
    }

    @Test func aGroupsMembersAreListedAndARenameShowsAtOnce() async throws {
        try #require(Tmux.isInstalled, "tmux is missing: run scripts/install-test-tools")
        let scene = try await CLIScene.start("tui-members", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob")
        #expect(try await scene.run(["group", "create", "--home", ann.path, "Climbing", "--invite", "bob@example.org"]).status == 0)
        #expect(try await scene.run(["group", "accept", "--home", bob.path, "1"]).status == 0)
        #expect(try await scene.run(["read", "--home", ann.path]).status == 0)
        try await inTmux(scene) { tmux in
            try await tmux.start("members", width: 100, height: 30, command: script("--home \(bob.path) --conversation 1"))
            try await tmux.waitFor("members", "the group, titled") { screen in
                screen.first?.hasSuffix("● connected") == true && screen.contains { $0.contains("Climbing · 2 members") }
            }
            try await tmux.type("members", "/members")
            try await tmux.press("members", "Enter")
            try await tmux.waitFor("members", "who is in it") { $0.contains { $0.contains("! in this group: ann (creator), you") } }
            // The creator renames it from elsewhere: the title bar and the list follow while the chat stays open.
            #expect(try await scene.run(["group", "rename", "--home", ann.path, "1", "Climbing, May"]).status == 0)
            try await tmux.waitFor("members", "the new title") { screen in
                screen.contains { $0.contains("Climbing, May · 2 members") } && screen.contains { $0.hasPrefix("▶") && $0.contains("Climbing, May") }
            }
            try await tmux.type("members", "/quit")
            try await tmux.press("members", "Enter")
            try await expectRestored(tmux, "members", status: "0")
        }
        try await scene.finish()
    }

    @Test func withoutAnAccountItSaysHowToMakeOne() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("parley-tui-none-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let noAccount = try await ParleyBinary.runDetached(["chat", "--home", home.path])
        #expect(noAccount.status == 1)
        #expect(noAccount.stderr.contains("parley account register"))
    }
}
