import Foundation
import ParleyTestSupport
import Testing

/// A chat whose vault key is sealed to a TPM behind a TPM PIN (docs/HARDWARE-KEYS.md): the lock screen takes
/// that PIN, the TPM (not Parley) judges it, and a wrong one leaves the screen locked. A real terminal (tmux) and
/// a real software TPM.
@Suite("parley chat with the vault in a TPM (tmux)", .serialized, .offThePool)
struct ChatTPMLockTests {
    @Test("a locked chat of a TPM + PIN vault takes the TPM PIN on its lock screen; a wrong one stays locked")
    func lockScreenTakesTheTPMPIN() async throws {
        try #require(Tmux.isInstalled, "tmux is missing: run scripts/install-test-tools")
        let scene = try await CLIScene.start("chat-tpm", people: ["ann", "bob"])
        defer { Task { try? await scene.finish() } }
        let tpm = try SoftwareTPM()
        let ann = scene.home("ann").path, bob = scene.home("bob").path
        let sent = try await scene.run(["send", "--home", ann, "--to", "bob@example.org", "The key is under the mat"])
        #expect(sent.status == 0, "\(sent.stderr)")
        try await CLIAccounts.accept(request: 1, home: scene.home("bob"))
        let moved = try await scene.run(["account", "set-protection", "--home", bob, "hardware", "--pin"],
                                        environment: ["PARLEY_TPM_TCTI": tpm.tcti, "PARLEY_NEW_PIN": "5829"])
        #expect(moved.status == 0 && moved.stdout.contains("behind a PIN the TPM checks"), "\(moved.stderr)")

        let tmux = Tmux()
        do {
            let chat = ChatTUITests().script("--home \(bob)", environment: "PARLEY_TPM_TCTI='\(tpm.tcti)' PARLEY_PIN=5829")
            try await tmux.start("tpm", width: 80, height: 24, command: chat)
            try await tmux.waitFor("tpm", "the chat, opened through the TPM") { screen in
                screen.first?.hasSuffix("● connected") == true && screen.contains { $0.contains("ann: The key is under the mat") }
            }
            // A TPM PIN is a PIN to unlock with, so /lock locks (a PIN-less TPM vault would unlock itself).
            try await tmux.type("tpm", "/lock")
            try await tmux.press("tpm", "Enter")
            var screen = try await tmux.waitFor("tpm", "the locked screen") { $0.contains { $0.contains("Type your vault PIN") } }
            #expect(!screen.contains { $0.contains("under the mat") || $0.contains("ann") }, "\(screen)")
            try await tmux.type("tpm", "1111")
            try await tmux.waitFor("tpm", "the PIN as dots") { $0.contains { $0.contains("••••") && !$0.contains("1111") } }
            try await tmux.press("tpm", "Enter")
            screen = try await tmux.waitFor("tpm", "the TPM's refusal") { $0.contains { $0.contains("the PIN is wrong") } }
            #expect(!screen.contains { $0.contains("under the mat") }, "\(screen)")
            try await tmux.type("tpm", "5829")
            try await tmux.press("tpm", "Enter")
            try await tmux.waitFor("tpm", "the unlocked conversation") { $0.contains { $0.contains("ann: The key is under the mat") } }
            // With the TPM gone while locked, the right PIN is answered in words and the screen stays locked.
            try await tmux.type("tpm", "/lock")
            try await tmux.press("tpm", "Enter")
            try await tmux.waitFor("tpm", "locked again") { $0.contains { $0.contains("Type your vault PIN") } }
            tpm.stop()
            try await tmux.type("tpm", "5829")
            try await tmux.press("tpm", "Enter")
            screen = try await tmux.waitFor("tpm", "no TPM") { $0.contains { $0.contains("no TPM is available") } }
            #expect(!screen.contains { $0.contains("under the mat") }, "\(screen)")
            try tpm.start()
            try await tmux.type("tpm", "5829")
            try await tmux.press("tpm", "Enter")
            try await tmux.waitFor("tpm", "unlocked with the TPM back") { $0.contains { $0.contains("ann: The key is under the mat") } }
            try await tmux.press("tpm", "C-c")
            try await ChatTUITests().expectRestored(tmux, "tpm", status: "0")
        } catch {
            await tmux.stop()
            throw error
        }
        await tmux.stop()
    }
}
