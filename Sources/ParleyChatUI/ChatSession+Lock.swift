import Foundation
import ParleyClient
import ParleyVault

extension ChatSession {
    /// Checks whether the vault locked itself (idle timeout, or a clock that jumped); a vault without a PIN
    /// is simply unlocked again, a PIN vault clears the screen and asks for the PIN.
    func checkLock() async {
        guard client.vault.isLocked, !state.locked else { return }
        if let access = ChatVaultAccess.withoutAsking(client.directory), (try? await client.vault.unlock(access: access)) != nil { return }
        enterLocked()
    }

    /// `/lock`: drops the key now.
    func lockNow() async {
        guard ChatVaultAccess.withoutAsking(client.directory) == nil else {
            state.notice = "this vault has no PIN, so there is nothing to unlock it with; set one with 'parley account set-pin' or 'set-protection'"
            return
        }
        client.vault.lock()
        enterLocked()
    }

    /// Forgets everything decrypted that the screen held; the input line now takes the PIN.
    func enterLocked() {
        state.locked = true
        state.messages = []
        state.quoted = [:]
        state.conversations = []
        state.names = [:]
        state.shields = [:]
        state.showHelp = false
        state.input.clear()
        state.notice = nil
        asked = []
    }

    /// A key while locked: the PIN is typed (shown as dots, kept out of the input history), Enter tries it.
    func pressWhileLocked(_ key: Key) async {
        switch key {
        case .text(let text): state.input.insert(text)
        case .backspace: state.input.backspace()
        case .control("c"): running = false
        case .control("u"), .escape: state.input.clear()
        case .enter:
            let pin = state.input.text
            state.input.clear()
            await unlock(pin: pin)
        default: break
        }
    }

    private func unlock(pin: String) async {
        guard !pin.isEmpty else { state.notice = "type your vault PIN, then Enter"; return }
        do {
            try await client.vault.unlock(access: ChatVaultAccess.typed(pin, for: client.directory))
        } catch .vault(.wiped) {
            // Too many wrong PINs: the local data is gone, there is nothing left to show.
            state.notice = "\(ClientError.vault(.wiped))"
            running = false
            return
        } catch {
            state.notice = "\(error)"
            return
        }
        state.locked = false
        state.notice = nil
        await reload(select: true)
        await open(state.selectedID)  // the conversation that was open before the lock, its messages read again
        let client = self.client
        Task { _ = try? await client.sync() }  // whatever arrived while locked waited on the server
    }
}
