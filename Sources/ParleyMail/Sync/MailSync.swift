import Foundation
import NIOCore
import NIOPosix
import ParleyMailFormats
import ParleyPGP

/// An incremental, resumable sync of an account's folders into its store (docs/MAIL.md §4).
public struct MailSync {
    /// What one sync did.
    public struct Report: Sendable, Equatable {
        public var folders = 0
        public var fetched = 0
        public var flagsChanged = 0
        public var removed = 0
        /// Messages read here whose \\Seen was sent to the server.
        public var markedRead = 0
        public var reset: [String] = []
    }

    /// Messages larger than this are recorded but not fetched.
    public static let largestMessage = 32 << 20
    /// A batch of bodies: at most this many messages and this many announced bytes.
    static let batchMessages = 100
    static let batchBytes = 8 << 20

    let store: MailStore
    let group: any EventLoopGroup
    let progress: @Sendable (String) -> Void

    public init(store: MailStore, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.store = store
        self.group = group
        self.progress = progress
    }

    /// Syncs `folder`, or every selectable folder. Blocks: call it through `MailThread.run`.
    public func run(folder only: String? = nil) throws(MailboxError) -> Report {
        let settings = try store.settings()
        let session = try IMAPSession(server: settings.imap, group: group)
        defer { session.logout() }
        try session.login(username: settings.username, password: settings.password)
        let folders = try session.folders()
        var report = Report()
        let chosen: [String]
        if let only {
            guard folders.contains(only) else {
                throw .notFound("the server has no folder \"\(only)\"; it has: \(folders.prefix(20).joined(separator: ", "))")
            }
            chosen = [only]
        } else {
            chosen = folders
        }
        // Whatever happens, what was stored is written down before the sync ends.
        defer { try? store.makeDurable() }
        for name in chosen {
            try sync(name, session: session, report: &report)
            report.folders += 1
        }
        try store.makeDurable()
        return report
    }

    private func sync(_ name: String, session: IMAPSession, report: inout Report) throws(MailboxError) {
        let status = try session.select(name)
        let before = try store.folderState(name)
        let folder = try store.prepareFolder(name, uidValidity: status.uidValidity)
        if let before, before.uidValidity != status.uidValidity { report.reset.append(name) }
        // 1. What was read here goes to the server first, so the refresh below does not undo it.
        let readHere = try store.seenHere(folder: folder)
        if !readHere.isEmpty {
            try session.add(.seen, to: readHere)
            try store.clearSeenHere(readHere, folder: folder)
            report.markedRead += readHere.count
        }
        // 2. Flags and expunges of what is stored.
        let stored = try store.storedFlags(folder: folder)
        if !stored.isEmpty {
            let current = try session.flags(through: folder.syncedUID, exists: status.exists)
            var changes: [UInt32: UInt8] = [:]
            for (uid, flags) in current where stored[uid] != nil && stored[uid] != flags { changes[uid] = flags }
            let removed = stored.keys.filter { current[$0] == nil }
            try store.apply(flags: changes, removed: removed, folder: folder)
            report.flagsChanged += changes.count
            report.removed += removed.count
        }
        // 3. What is new, in bounded batches, each committed with the cursor.
        let new = try session.sizes(after: folder.syncedUID, exists: status.exists).sorted { $0.uid < $1.uid }
        guard !new.isEmpty else { return }
        progress("\(name): \(new.count) new message(s)")
        // What senders say about their keys is learned with their messages (docs/MAIL.md §6.1), except from spam.
        let learning = AutocryptReceipt.ignores(folder: name) ? nil : try AutocryptLearning(store: store)
        var index = 0
        while index < new.count {
            var batch: [(uid: UInt32, size: Int)] = []
            var bytes = 0
            while index < new.count, batch.count < Self.batchMessages,
                  batch.isEmpty || bytes + min(new[index].size, Self.largestMessage) <= Self.batchBytes {
                batch.append(new[index])
                bytes += min(new[index].size, Self.largestMessage)
                index += 1
            }
            let wanted = batch.filter { $0.size <= Self.largestMessage }
            let fetched = try session.messages(wanted.map(\.uid), announced: wanted.reduce(0) { $0 + $1.size })
            var byUID: [UInt32: FetchedMessage] = [:]
            for message in fetched where message.raw != nil { byUID[message.uid] = message }
            var rows: [(message: FetchedMessage, summary: MailSummary)] = []
            var receipts: [AutocryptReceipt] = []
            for entry in batch {
                if entry.size > Self.largestMessage {
                    rows.append((FetchedMessage(uid: entry.uid, size: entry.size, flags: 0, internalDate: nil, raw: []),
                                 MailSummary(tooLargeWithSize: entry.size)))
                } else if let message = byUID[entry.uid], let raw = message.raw {
                    let headers = try? MailHeaders.of(eml: raw)
                    rows.append((message, MailSummary(headers: headers, raw: raw)))
                    if let learning, let headers, let receipt = learning.receipt(headers) { receipts.append(receipt) }
                }
                // A message the server listed but did not send (expunged in between) is simply not stored.
            }
            try store.store(rows, folder: folder, syncedUID: batch.last?.uid ?? folder.syncedUID, learning: receipts)
            report.fetched += rows.count
            progress("\(name): \(min(index, new.count)) of \(new.count)")
        }
    }
}
