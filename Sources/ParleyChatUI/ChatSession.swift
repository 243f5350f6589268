import Foundation
import ParleyClient

/// Something the chat loop reacts to. Keys, client events, signals and background results all
/// arrive through one stream, so the state is only ever changed by the loop, one event at a time.
enum ChatEvent: Sendable {
    case keys([Key])
    case client(ClientEvent)
    case resize
    case terminate
    case inputEnded
    case connected(error: String?)
    case retryConnect
    case learned(Int64, String)
    /// Every 2 s: has the vault locked itself?
    case tick
    /// `parley account lock` from another terminal.
    case lockRequested
}

/// The running `parley chat`: owns the terminal, the state and the loop; draws after every event.
public final class ChatSession {
    let client: ParleyClient
    let terminal: Terminal
    var state: ChatState
    let events: AsyncStream<ChatEvent>
    let post: AsyncStream<ChatEvent>.Continuation
    var running = true
    /// A resize or Ctrl-L: clear the whole screen before the next frame.
    var needsClear = false
    /// Accounts whose profile was asked for (once each).
    var asked: Set<Int64> = []
    private var signalSources: [any DispatchSourceSignal] = []

    /// The conversation to open first (`--conversation`), if it is in the list.
    private let opening: Int64?
    /// Said once connected, when `opening` was not in the list (the connection clears the notice line).
    private var openingNotice: String?
    /// The notice a failed connection put up, which a later successful one takes down (and nothing else).
    private var connectionNotice: String?

    /// A session on `terminal` for `client`, opening conversation `opening` first when given.
    public init(client: ParleyClient, terminal: Terminal, opening: Int64? = nil) {
        self.opening = opening
        self.client = client
        self.terminal = terminal
        state = ChatState(account: client.email)
        let (stream, continuation) = AsyncStream<ChatEvent>.makeStream()
        events = stream
        post = continuation
    }

    /// Runs until /quit, Ctrl-C, SIGTERM/SIGHUP or the end of input; leaves the terminal as it was.
    public func run() async {
        let post = self.post
        let clientEvents = client.events()   // before connecting, so nothing from the login is missed
        let forwarder = Task { for await event in clientEvents { post.yield(.client(event)) } }
        Terminal.startReading(deliver: { post.yield(.keys($0)) }, ended: { post.yield(.inputEnded) })
        watch(SIGWINCH, as: .resize)
        for number in [SIGTERM, SIGHUP, SIGINT] { watch(number, as: .terminate) }
        watch(AccountHome.lockSignal, as: .lockRequested)
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(2))
                post.yield(.tick)
            }
        }

        state.me = await client.accountID
        await reload(select: opening == nil)
        if let opening {
            if state.conversations.contains(where: { $0.id == opening }) {
                await open(opening)
            } else {
                openingNotice = "there is no conversation \(opening) on this device ('parley conversations' lists them)"
                state.notice = openingNotice
                await reload(select: true)
            }
        }
        draw()
        connect()
        for await event in events {
            await handle(event)
            guard running else { break }
            draw()
        }
        forwarder.cancel()
        ticker.cancel()
        for source in signalSources { source.cancel() }
        terminal.restore()
        await client.disconnect()
    }

    /// Turns a signal into an event (the signal's own action is switched off first).
    private func watch(_ number: Int32, as event: ChatEvent) {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        let post = self.post
        source.setEventHandler { post.yield(event) }
        source.resume()
        signalSources.append(source)
    }

    /// Connects in the background (the screen works from the local store meanwhile); the client
    /// reconnects by itself once connected, and a first failure is retried every 5 s.
    func connect() {
        let client = self.client, post = self.post
        Task {
            do {
                try await client.connect(reconnect: true)
                post.yield(.connected(error: nil))
            } catch {
                post.yield(.connected(error: "\(error)"))
                try? await Task.sleep(for: .seconds(5))
                post.yield(.retryConnect)
            }
        }
    }

    /// Draws the current state at the terminal's current size.
    func draw() {
        let (width, height) = terminal.size()
        let rendered = state.screen(width: width, height: height).render()
        state.scroll = rendered.scroll
        terminal.draw(rendered, clear: needsClear)
        needsClear = false
    }

    /// The message pane's height at the current size (for paging).
    var pageHeight: Int { max(1, terminal.size().height - 6) }

    /// Applies one event.
    func handle(_ event: ChatEvent) async {
        switch event {
        case .keys(let keys):
            for key in keys where running { await press(key) }
        case .client(let clientEvent):
            await apply(clientEvent)
        case .resize:
            needsClear = true
        case .terminate, .inputEnded:
            running = false
        case .connected(let error):
            if let error {
                state.link = .offline
                // While locked the notice line belongs to the PIN prompt (a wrong PIN must stay visible); a
                // connection that failed because the vault is locked is tried again after the unlock anyway.
                if !state.locked {
                    state.notice = error
                    connectionNotice = error
                }
            } else if !state.locked {
                // Connecting (catch-up, sharing titles) can end after the person already typed a command: only what
                // the connection itself put up gives way, not the answer to that command.
                if state.notice == nil || state.notice == connectionNotice { state.notice = openingNotice }
                openingNotice = nil
                connectionNotice = nil
                await reload(select: state.selectedID == nil)
                if state.notice == nil { await announceInvitations() }
            }
        case .retryConnect:
            state.link = .connecting
            connect()
        case .learned(let account, let name):
            if !state.locked { state.names[account] = name }
        case .tick:
            await checkLock()
        case .lockRequested:
            if !state.locked { await lockNow() }
        }
    }

    /// Applies what the client reports.
    func apply(_ event: ClientEvent) async {
        // While locked the screen holds nothing decrypted; only the connection indicator follows events.
        if state.locked, case .message = event { return }
        if state.locked, case .messageUpdated = event { return }
        switch event {
        case .message(let message):
            if state.receive(message, isNew: true) { await reload(select: false) }
            // A queued line went out: the outbox notice is no longer true.
            if message.senderID == state.me, state.notice == ChatSession.outboxNotice { state.notice = nil }
            if message.conversationID == state.selectedID, message.senderID != state.me {
                try? await client.messageActions.markRead(message.id)
                try? client.inbox.markSeen([message.id])
            }
            learnNames()
        case .messageUpdated(let message):
            state.receive(message, isNew: false)
        case .connection(let status):
            switch status {
            case .connected:
                state.link = .connected
                state.online = await client.onlineContacts
                asked = []   // profiles asked for while offline could not be fetched: ask again
            case .disconnected:
                state.link = .offline
                state.online = []
            case .reconnecting(let attempt, _):
                state.link = .reconnecting(attempt: attempt)
            }
        case .server(let event):
            await apply(event)
        case .signedOut:
            state.link = .offline
            state.notice = ClientError.signedOut.description
        case .identityKeyChanged(let account, let blocked):
            let who = state.names[account] ?? "a contact"
            state.notice = blocked
                ? "\(who)'s key changed after you verified it: sending is blocked until 'parley verify accept'"
                : "\(who)'s key changed: compare safety numbers with 'parley verify'"
            await refreshShields()
        case .trustChanged:
            await refreshShields()
        case .groupRenamed(let conversationID, let title):
            if !state.locked { state.rename(conversationID, to: title) }
        }
    }

    private func apply(_ event: ServerEvent) async {
        switch event {
        case .onlineUsers, .userOnline, .userOffline:
            state.online = await client.onlineContacts
        case .messagesRead(let read):
            state.markRead(conversation: read.conversationID, account: read.accountID, upTo: read.upTo)
        case .groupInvitation(let invitation):
            await reload(select: state.selectedID == nil)
            let id = invitation.conversationID
            let name = await inviter(invitation.invitedBy ?? invitation.creatorID)
            state.notice = "\(name) invited you to group \(id): /accept \(id) or /decline \(id)"
        case .conversationCreated, .conversationDeleted, .memberAdded, .memberRemoved:
            await reload(select: state.selectedID == nil)
        default:
            break
        }
    }
}
