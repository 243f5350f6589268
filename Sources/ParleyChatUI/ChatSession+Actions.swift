import Foundation
import ParleyClient

extension ChatSession {
    /// Acts on one key.
    func press(_ key: Key) async {
        if state.locked { return await pressWhileLocked(key) }
        switch key {
        case .text(let text): state.input.insert(text)
        case .enter: await perform(ChatInput.parse(state.input.submit()))
        case .backspace: state.input.backspace()
        case .delete: state.input.deleteForward()
        case .left: state.input.move(by: -1)
        case .right: state.input.move(by: 1)
        case .home: state.input.moveTo(start: true)
        case .end: state.input.moveTo(start: false)
        case .up: state.input.historyUp()
        case .down: state.input.historyDown()
        case .tab, .nextConversation: await open(state.neighbour(1))
        case .backTab, .previousConversation: await open(state.neighbour(-1))
        case .pageUp: state.scroll += pageHeight - 1
        case .pageDown: state.scroll = max(0, state.scroll - (pageHeight - 1))
        case .escape:
            state.showHelp = false
            state.notice = nil
        case .control(let letter):
            switch letter {
            case "c": running = false
            case "d": if state.input.text.isEmpty { running = false } else { state.input.deleteForward() }
            case "a": state.input.moveTo(start: true)
            case "e": state.input.moveTo(start: false)
            case "u": state.input.clear()
            case "w": state.input.deleteWord()
            case "l": needsClear = true
            case "n": await open(state.neighbour(1))
            case "p": await open(state.neighbour(-1))
            default: break
            }
        }
    }

    /// Runs a typed line. Errors become the notice line (ClientError descriptions carry no secrets).
    func perform(_ input: ChatInput) async {
        state.notice = nil
        do {
            switch input {
            case .none:
                break
            case .send(let text):
                try await send(text, replyTo: nil)
            case .reply(let id, let text):
                try await send(text, replyTo: id)
            case .react(let id, let emoji):
                let present = try await client.messageActions.react(emoji, to: id)
                state.notice = present ? "reacted \(emoji) to #\(id)" : "removed \(emoji) from #\(id)"
            case .pin(let id, let pinned):
                try await client.messageActions.pin(id, pinned)
                state.notice = pinned ? "pinned #\(id)" : "unpinned #\(id)"
            case .delete(let id):
                guard let message = try client.history.message(id), message.senderID == state.me else {
                    state.notice = "#\(id) is not one of your messages; you can only delete your own"
                    return
                }
                try await client.messageActions.delete(id)
                state.notice = "deleted #\(id)"
            case .open(let email):
                let conversation = try await client.startConversation(with: email)
                await reload(select: false)
                await open(conversation.id)
            case .favourite:
                guard let conversation = state.selected else { state.notice = "open a conversation first (Tab)"; return }
                try await client.setFavourite(!conversation.favourite, conversationID: conversation.id)
                await reload(select: false)
            case .members:
                guard let conversation = state.selected, conversation.kind == "group" else {
                    state.notice = "open a group first (Tab): /members lists who is in it"
                    return
                }
                let (_, rows) = try await MemberList.of(conversation.id, client: client)
                state.notice = "in this group: " + rows.map(\.shortLabel).joined(separator: ", ")
            case .acceptInvitation(let id):
                _ = try await client.groups.accept(id)
                await reload(select: false)
                await open(id)
                state.notice = "joined group \(id)"
            case .declineInvitation(let id):
                try await client.groups.decline(id)
                state.notice = "declined the invitation to group \(id)"
            case .help:
                state.showHelp.toggle()
            case .lock:
                await lockNow()
            case .quit:
                running = false
            case .invalid(let why):
                state.notice = why
            }
        } catch {
            state.notice = "\(error)"
        }
    }

    /// Says which group invitations wait for an answer (none: nothing). Called once connected, so invitations that
    /// arrived quietly or while the chat was closed are seen too.
    func announceInvitations() async {
        guard let waiting = try? await client.groups.invitations(), !waiting.isEmpty else { return }
        let ids = waiting.map { String($0.conversationID) }
        if waiting.count == 1 {
            let name = await inviter(waiting[0].creatorID)
            state.notice = "\(name) invited you to group \(ids[0]): /accept \(ids[0]) or /decline \(ids[0])"
        } else {
            state.notice = "\(waiting.count) group invitations wait (groups \(ids.joined(separator: ", "))): /accept N or /decline N"
        }
    }

    /// Who invited: the name this device knows or the server's profile shows, else the account's number. Remote
    /// text: the notice line is sanitized when drawn.
    func inviter(_ account: Int64?) async -> String {
        guard let account else { return "someone" }
        if let known = state.names[account] { return known }
        if let learned = try? await client.contacts.learnProfile(account), let name = learned.displayName ?? learned.email {
            state.names[account] = name
            return name
        }
        return "account \(account)"
    }

    /// What the chat says while a line waits in the outbox.
    static let outboxNotice = "not connected: the message waits in the outbox and goes out on reconnect"

    /// Sends to the open conversation; a message sent without a connection waits in the outbox.
    private func send(_ text: String, replyTo: Int64?) async throws {
        guard let conversation = state.selectedID else {
            state.notice = "no conversation open: press Tab, or /open EMAIL"
            return
        }
        switch try await client.send(text, to: conversation, replyTo: replyTo) {
        case .sent(let message):
            state.receive(message, isNew: true)
            state.scroll = 0
        case .queued:
            state.notice = ChatSession.outboxNotice
        }
    }

    /// Opens a conversation: loads its history from the local store, marks it read, and refreshes
    /// reactions and pins from the server in the background.
    func open(_ id: Int64?) async {
        guard let id else { return }
        state.selectedID = id
        state.scroll = 0
        state.showHelp = false
        state.messages = (try? client.history.messages(in: id, limit: ChatState.window)) ?? []
        state.quoted = [:]
        for reply in Set(state.messages.compactMap(\.replyTo)) where !state.messages.contains(where: { $0.id == reply }) {
            if let original = try? client.history.message(reply) { state.quoted[reply] = original }
        }
        markOpenConversationRead()
        let client = self.client
        Task { try? await client.messageActions.refreshStates(in: id) }
        learnNames()
    }

    /// Re-reads the conversation list (from the server when connected) and presence.
    func reload(select: Bool) async {
        do {
            state.conversations = try await client.conversations()
        } catch {
            state.notice = "\(error)"
        }
        state.online = await client.onlineContacts
        if let selected = state.selectedID, !state.conversations.contains(where: { $0.id == selected }) {
            state.selectedID = nil
            state.messages = []
        }
        if select, state.selectedID == nil, let first = state.ordered.first {
            await open(first.id)
        }
        markOpenConversationRead()
        learnNames()
        await refreshShields()
    }

    /// The trust shield of each direct conversation's peer: ✓ verified, ! unverified (a new or changed
    /// key), nothing for trust on first use.
    func refreshShields() async {
        for conversation in state.conversations {
            guard let peer = state.peer(of: conversation), let status = try? client.trust.status(of: peer) else { continue }
            state.shields[peer] = switch status {
            case .verified: "✓"
            case .unverified: "!"
            case .trusted: nil
            }
        }
    }

    /// The open conversation is being read: its count goes to zero here and at the server (where the
    /// other members see the read mark). Offline, the server keeps its count until the next reload.
    func markOpenConversationRead() {
        guard let id = state.selectedID, let index = state.conversations.firstIndex(where: { $0.id == id }) else { return }
        let client = self.client
        // What is on the screen is not news for `parley read` any more.
        Task { _ = try? client.inbox.takeUnseen(in: id) }
        guard state.conversations[index].unread > 0 else { return }
        state.conversations[index].unread = 0
        Task { try? await client.messageActions.markRead(conversation: id) }
    }

    /// Fills in names: from the local contact list at once, from the server's profiles in the background.
    func learnNames() {
        let client = self.client, post = self.post
        for account in state.unknownAccounts where !asked.contains(account) {
            asked.insert(account)
            Task {
                if let known = try? client.contacts.contact(account), let name = known.displayName ?? known.email {
                    post.yield(.learned(account, name))
                }
                if let learned = try? await client.contacts.learnProfile(account), let name = learned.displayName ?? learned.email {
                    post.yield(.learned(account, name))
                }
            }
        }
    }
}
