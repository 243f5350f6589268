import Foundation
import ParleyTestSupport
import Testing

/// `parley mail watch` in a real terminal (tmux): encrypted mail from GnuPG is shown decrypted, the pass phrase
/// is asked once and the unlocked key kept only while it is used (docs/MAIL.md §5, "Watching").
@Suite("parley mail watch in a terminal", .serialized, .enabled(if: Tmux.isInstalled), .offThePool)
struct MailWatchTests {
    let people: MailPeople
    init() throws { people = try MailPeople("parley-mail-watch") }

    func encrypted(_ subject: String, _ text: String) throws -> String {
        let armored = try people.gpg(["--armor", "--encrypt", "--sign", "--recipient", MailPeople.ann, "--local-user", MailPeople.bob], input: text)
        return "From: Bob <bob@example.org>\r\nTo: Ann <ann@example.org>\r\nSubject: \(subject)\r\nMIME-Version: 1.0\r\n"
            + "Content-Type: text/plain\r\n\r\n\(armored)\r\n"
    }

    @Test func thePassPhraseIsAskedOnceAndTheKeyForgottenWhenUnused() async throws {
        let bob = try await people.exchangeKeys()
        _ = try await people.addAccountAndSync()
        let binary = ParleyBinary.productsDirectory.appendingPathComponent("parley").path
        let tmux = Tmux()
        do {
            try await tmux.start("watch", width: 120, height: 40, command: "PARLEY_WKD_ADDRESS= \(binary) mail watch --home '\(people.path("home"))' "
                                 + "--keyring '\(people.path("keyring"))' --key-cache-seconds 20; exec sleep 600")
            try await tmux.waitFor("watch", "watch to start") { $0.contains { $0.contains("Watching INBOX") } }
            try people.dovecot.save(try encrypted("First", "The first secret.\n"), user: MailPeople.ann)
            try await tmux.waitFor("watch", "the pass phrase prompt") { $0.contains { $0.contains("Pass phrase for your secret key:") } }
            try await tmux.type("watch", people.passphrase)
            try await tmux.press("watch", "Enter")
            var screen = try await tmux.waitFor("watch", "the first message decrypted") { $0.contains { $0.contains("The first secret.") } }
            #expect(screen.contains { $0.contains("signed by \(bob) (good signature)") }, "\(screen)")
            #expect(!screen.contains { $0.contains(people.passphrase) }, "the pass phrase was echoed")

            // Within the cache's time (20 s: a loaded whole run was seen to take over 4 s between two arrivals): no
            // second prompt.
            try people.dovecot.save(try encrypted("Second", "The second secret.\n"), user: MailPeople.ann)
            screen = try await tmux.waitFor("watch", "the second message decrypted") { $0.contains { $0.contains("The second secret.") } }
            #expect(screen.filter { $0.contains("Pass phrase for your secret key:") }.count == 1, "\(screen)")

            // After the key went unused for longer than the cache keeps it, the pass phrase is asked again.
            try await Task.sleep(for: .seconds(23))
            try people.dovecot.save(try encrypted("Third", "The third secret.\n"), user: MailPeople.ann)
            screen = try await tmux.waitFor("watch", "a second prompt") { $0.filter { $0.contains("Pass phrase for your secret key:") }.count == 2 }
            #expect(!screen.contains { $0.contains("The third secret.") })
            try await tmux.type("watch", people.passphrase)
            try await tmux.press("watch", "Enter")
            try await tmux.waitFor("watch", "the third message decrypted") { $0.contains { $0.contains("The third secret.") } }
        } catch {
            await tmux.stop()
            throw error
        }
        await tmux.stop()
    }
}
