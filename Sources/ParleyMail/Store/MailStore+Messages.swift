import Foundation
import GRDB
import ParleyMailFormats

/// One stored message as a list shows it.
public struct MailListing: Sendable, Equatable {
    /// The number a person types (`parley mail read 42`).
    public var id: Int64
    public var folder: String
    public var uid: UInt32
    public var size: Int
    public var flags: UInt8
    public var internalDate: Int64?
    public var summary: MailSummary

    public var isSeen: Bool { flags & 1 != 0 }
}

/// A folder's sync position (docs/MAIL.md §4).
struct FolderState: Sendable, Equatable {
    var id: Int64
    var uidValidity: UInt32
    var syncedUID: UInt32
}

extension MailStore {
    /// The folder's row, made or reset for `uidValidity`: a changed UIDVALIDITY drops what was stored, in one
    /// transaction, since the server's UIDs now mean other messages.
    func prepareFolder(_ name: String, uidValidity: UInt32) throws(MailboxError) -> FolderState {
        try write { db in
            if let row = try Row.fetchOne(db, sql: "SELECT id, uidvalidity, synced_uid FROM folders WHERE name = ?", arguments: [name]) {
                let id: Int64 = row["id"]
                if UInt32(truncatingIfNeeded: row["uidvalidity"] as Int64) == uidValidity {
                    return FolderState(id: id, uidValidity: uidValidity, syncedUID: UInt32(truncatingIfNeeded: row["synced_uid"] as Int64))
                }
                try db.execute(sql: "DELETE FROM messages WHERE folder_id = ?", arguments: [id])
                try db.execute(sql: "UPDATE folders SET uidvalidity = ?, synced_uid = 0 WHERE id = ?", arguments: [Int64(uidValidity), id])
                return FolderState(id: id, uidValidity: uidValidity, syncedUID: 0)
            }
            try db.execute(sql: "INSERT INTO folders (name, uidvalidity, synced_uid) VALUES (?, ?, 0)", arguments: [name, Int64(uidValidity)])
            return FolderState(id: db.lastInsertedRowID, uidValidity: uidValidity, syncedUID: 0)
        }
    }

    /// Stores whole messages and moves the folder's cursor to `syncedUID` in the same transaction, so a sync
    /// killed at any point leaves complete messages and a cursor that matches them (a batch transaction:
    /// see `writeBatch`).
    func store(_ messages: [(message: FetchedMessage, summary: MailSummary)], folder: FolderState, syncedUID: UInt32,
               learning receipts: [AutocryptReceipt] = []) throws(MailboxError) {
        try writeBatch { db in
            try apply(receipts, gossip: false, in: db)
            for (message, summary) in messages {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO messages (folder_id, uid, size, flags, internal_date, summary, raw)
                    VALUES (?, ?, ?, ?, ?, x'', x'')
                    """, arguments: [folder.id, Int64(message.uid), message.size, Int64(message.flags), message.internalDate])
                guard db.changesCount == 1 else { continue }
                let id = db.lastInsertedRowID
                try db.execute(sql: "UPDATE messages SET summary = ?, raw = ? WHERE id = ?",
                               arguments: [try seal(summary, binding: "mail/summary/\(id)"),
                                           Data(key.seal(message.raw ?? [], binding: "mail/raw/\(id)")), id])
            }
            try db.execute(sql: "UPDATE folders SET synced_uid = MAX(synced_uid, ?) WHERE id = ?", arguments: [Int64(syncedUID), folder.id])
        }
    }

    /// UID → flags of what is stored in a folder.
    func storedFlags(folder: FolderState) throws(MailboxError) -> [UInt32: UInt8] {
        try read { db in
            var flags: [UInt32: UInt8] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT uid, flags FROM messages WHERE folder_id = ?", arguments: [folder.id]) {
                flags[UInt32(truncatingIfNeeded: row["uid"] as Int64)] = UInt8(truncatingIfNeeded: row["flags"] as Int64)
            }
            return flags
        }
    }

    /// Applies flag changes and removes messages the server no longer has, in one transaction.
    func apply(flags changes: [UInt32: UInt8], removed: [UInt32], folder: FolderState) throws(MailboxError) {
        guard !changes.isEmpty || !removed.isEmpty else { return }
        try write { db in
            for (uid, flags) in changes {
                try db.execute(sql: "UPDATE messages SET flags = ? WHERE folder_id = ? AND uid = ?", arguments: [Int64(flags), folder.id, Int64(uid)])
            }
            for uid in removed {
                try db.execute(sql: "DELETE FROM messages WHERE folder_id = ? AND uid = ?", arguments: [folder.id, Int64(uid)])
            }
        }
    }

    /// The stored folders and how many messages (and unread ones) each holds.
    public func folders() throws(MailboxError) -> [(name: String, messages: Int, unread: Int)] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT f.name, COUNT(m.id) AS total, COALESCE(SUM(CASE WHEN m.flags & 1 = 0 THEN 1 ELSE 0 END), 0) AS unread
                FROM folders f LEFT JOIN messages m ON m.folder_id = f.id GROUP BY f.id ORDER BY f.name
                """).map { ($0["name"], $0["total"], $0["unread"]) }
        }
    }

    /// Stored messages, newest first: of one folder (or all), only unread ones when asked, at most `limit`.
    public func list(folder: String?, unreadOnly: Bool, limit: Int = 50) throws(MailboxError) -> [MailListing] {
        let rows = try read { db in
            try Row.fetchAll(db, sql: """
                SELECT m.id, f.name, m.uid, m.size, m.flags, m.internal_date, m.summary FROM messages m JOIN folders f ON f.id = m.folder_id
                WHERE (? IS NULL OR f.name = ?) AND (? = 0 OR m.flags & 1 = 0)
                ORDER BY m.internal_date DESC, m.id DESC LIMIT ?
                """, arguments: [folder, folder, unreadOnly ? 1 : 0, limit])
        }
        var listings: [MailListing] = []
        for row in rows { listings.append(try listing(row)) }
        return listings
    }

    /// One stored message and its bytes as the server sent them.
    public func message(_ id: Int64) throws(MailboxError) -> (listing: MailListing, raw: [UInt8]) {
        let row = try read { db in
            try Row.fetchOne(db, sql: """
                SELECT m.id, f.name, m.uid, m.size, m.flags, m.internal_date, m.summary, m.raw FROM messages m
                JOIN folders f ON f.id = m.folder_id WHERE m.id = ?
                """, arguments: [id])
        }
        guard let row else { throw .notFound("there is no message \(id): see `parley mail list`") }
        let raw: Data = row["raw"]
        do {
            return (try listing(row), try key.open(raw, binding: "mail/raw/\(id)"))
        } catch {
            throw .storage("message \(id) is damaged")
        }
    }

    private func listing(_ row: Row) throws(MailboxError) -> MailListing {
        let id: Int64 = row["id"]
        let summary: Data = row["summary"]
        return MailListing(id: id, folder: row["name"], uid: UInt32(truncatingIfNeeded: row["uid"] as Int64), size: row["size"],
                           flags: UInt8(truncatingIfNeeded: row["flags"] as Int64), internalDate: row["internal_date"],
                           summary: try openSealed(MailSummary.self, summary, binding: "mail/summary/\(id)"))
    }
}

extension MailStore {
    /// The folder's stored sync position, if it has one.
    func folderState(_ name: String) throws(MailboxError) -> FolderState? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT id, uidvalidity, synced_uid FROM folders WHERE name = ?", arguments: [name]).map {
                FolderState(id: $0["id"], uidValidity: UInt32(truncatingIfNeeded: $0["uidvalidity"] as Int64),
                            syncedUID: UInt32(truncatingIfNeeded: $0["synced_uid"] as Int64))
            }
        }
    }
}

extension MailStore {
    /// Marks a message read here; the next sync tells the server (docs/MAIL.md §4).
    public func markSeen(_ id: Int64) throws(MailboxError) {
        try write { db in
            try db.execute(sql: "UPDATE messages SET flags = flags | 1, seen_here = 1 WHERE id = ? AND flags & 1 = 0", arguments: [id])
        }
    }

    /// UIDs read here whose \\Seen the server has not been told yet.
    func seenHere(folder: FolderState) throws(MailboxError) -> [UInt32] {
        try read { db in
            try Int64.fetchAll(db, sql: "SELECT uid FROM messages WHERE folder_id = ? AND seen_here = 1", arguments: [folder.id])
                .map { UInt32(truncatingIfNeeded: $0) }
        }
    }

    /// The server has been told.
    func clearSeenHere(_ uids: [UInt32], folder: FolderState) throws(MailboxError) {
        try write { db in
            for uid in uids {
                try db.execute(sql: "UPDATE messages SET seen_here = 0 WHERE folder_id = ? AND uid = ?", arguments: [folder.id, Int64(uid)])
            }
        }
    }
}

extension MailStore {
    /// Records that a message was answered (the server was told when the reply went out).
    public func markAnswered(_ id: Int64) throws(MailboxError) {
        try write { db in try db.execute(sql: "UPDATE messages SET flags = flags | 2 WHERE id = ?", arguments: [id]) }
    }

    /// Where a stored message is on the server, for marking it answered.
    public func location(of listing: MailListing) throws(MailboxError) -> MailSubmission.Answering? {
        try folderState(listing.folder).map { MailSubmission.Answering(folder: listing.folder, uid: listing.uid, uidValidity: $0.uidValidity) }
    }
}
