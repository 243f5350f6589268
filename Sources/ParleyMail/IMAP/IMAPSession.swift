import CParleyMail
import Foundation
import NIOCore

/// One message as a FETCH returned it.
struct FetchedMessage: Sendable {
    var uid: UInt32
    var size: Int
    var flags: UInt8
    /// Seconds since 1970 (INTERNALDATE), if the server gave it.
    var internalDate: Int64?
    /// The whole message (BODY[]), when it was asked for.
    var raw: [UInt8]?
}

/// A selected folder's identity and size.
struct FolderStatus: Sendable, Equatable {
    var uidValidity: UInt32
    var uidNext: UInt32
    var exists: UInt32
}

/// One IMAP connection, spoken by libetpan through a `MailBridge` (docs/MAIL.md §1–2). Its calls block: use
/// it from one thread of its own, never from an event loop or Swift's cooperative pool.
final class IMAPSession {
    private let imap: UnsafeMutablePointer<mailimap>
    let bridge: MailBridge

    /// Connects (and for STARTTLS upgrades) and reads the greeting.
    init(server: MailServer, group: any EventLoopGroup) throws(MailboxError) {
        let bridge = try MailBridge.open(server, group: group)
        guard let imap = mailimap_new(0, nil) else {
            bridge.close()
            throw .connection("out of memory")
        }
        mailimap_set_timeout(imap, time_t(MailBridge.readTimeout))
        let stream: UnsafeMutablePointer<mailstream>
        do {
            stream = try bridge.openStream()
        } catch {
            mailimap_free(imap)
            bridge.close()
            throw error
        }
        self.imap = imap
        self.bridge = bridge
        // From here `self` is whole: if this throws, deinit frees the session and closes the bridge.
        try check(bridge.canceller.connect({ mailimap_connect(imap, stream) }, succeeded: { Int($0) == MAILIMAP_NO_ERROR || Int($0) == MAILIMAP_NO_ERROR_AUTHENTICATED || Int($0) == MAILIMAP_NO_ERROR_NON_AUTHENTICATED }), "the greeting")
    }

    deinit {
        bridge.canceller.detach()
        mailimap_free(imap)
        bridge.close()
    }

    /// LOGIN; a refusal is `.loginFailed`. The password is never logged or put in an error.
    func login(username: String, password: String) throws(MailboxError) {
        bridge.budget.allow(ByteBudget.ordinaryCommand)
        let code = mailimap_login(imap, username, password)
        if Int(code) == MAILIMAP_ERROR_LOGIN { throw .loginFailed }
        try check(code, "LOGIN")
    }

    /// The folders that can be selected (LIST "" "*"), in the server's order.
    func folders() throws(MailboxError) -> [String] {
        bridge.budget.allow(ByteBudget.ordinaryCommand * 4)
        var list: UnsafeMutablePointer<clist>?
        try check(mailimap_list(imap, "", "*", &list), "LIST")
        defer { if let list { mailimap_list_result_free(list) } }
        var names: [String] = []
        var cursor = parley_list_first(list)
        while let item = cursor {
            var selectable: Int32 = 0
            if let name = parley_mailbox_name(parley_list_data(item), &selectable), selectable != 0 {
                names.append(String(cString: name))
            }
            cursor = parley_list_next(item)
        }
        return names
    }

    /// SELECT `folder`.
    func select(_ folder: String) throws(MailboxError) -> FolderStatus {
        bridge.budget.allow(ByteBudget.ordinaryCommand)
        try check(mailimap_select(imap, folder), "SELECT")
        var status = FolderStatus(uidValidity: 0, uidNext: 0, exists: 0)
        guard parley_selection(imap, &status.uidValidity, &status.uidNext, &status.exists) == 0 else {
            throw .malformedResponse(command: "SELECT")
        }
        return status
    }

    /// UIDs and sizes of the messages after `uid` in the selected folder.
    func sizes(after uid: UInt32, exists: UInt32) throws(MailboxError) -> [(uid: UInt32, size: Int)] {
        guard exists > 0 else { return [] }
        let messages = try fetch(range: (uid &+ 1, 0), type: parley_fetch_type_sizes(), allowance: Int(exists) * 96, command: "FETCH")
        // `n:*` also names the last message when n is past it (RFC 9051 §6.4.8): keep only what is newer.
        return messages.filter { $0.uid > uid }.map { ($0.uid, $0.size) }
    }

    /// Flags of every message up to `uid`.
    func flags(through uid: UInt32, exists: UInt32) throws(MailboxError) -> [UInt32: UInt8] {
        guard uid > 0, exists > 0 else { return [:] }
        let messages = try fetch(range: (1, uid), type: parley_fetch_type_flags(), allowance: Int(exists) * 160, command: "FETCH")
        return Dictionary(messages.map { ($0.uid, $0.flags) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whole messages by UID; `announced` is the sum of their announced sizes.
    func messages(_ uids: [UInt32], announced: Int) throws(MailboxError) -> [FetchedMessage] {
        guard !uids.isEmpty else { return [] }
        guard let set = mailimap_set_new_empty() else { throw .connection("out of memory") }
        defer { mailimap_set_free(set) }
        for uid in uids { mailimap_set_add_single(set, uid) }
        return try fetch(set: set, type: parley_fetch_type_messages(), allowance: announced + uids.count * 64 * 1024, command: "FETCH")
    }

    /// A flag `add` can set.
    enum Flag { case seen, answered }

    /// Sets `flag` on the messages with these UIDs (UID STORE +FLAGS.SILENT).
    func add(_ flag: Flag, to uids: [UInt32]) throws(MailboxError) {
        guard !uids.isEmpty else { return }
        guard let set = mailimap_set_new_empty() else { throw .connection("out of memory") }
        defer { mailimap_set_free(set) }
        for uid in uids { mailimap_set_add_single(set, uid) }
        bridge.budget.allow(ByteBudget.ordinaryCommand + uids.count * 160)
        try check(parley_uid_add_flag(imap, set, flag == .answered ? 1 : 0), "STORE")
    }

    /// IDLE (RFC 2177) on the selected folder for up to `seconds`: true when the server said something (new
    /// mail, a flag, an expunge), false after the time ran out. Without IDLE on the server, it waits and says true.
    func idle(seconds: Int) throws(MailboxError) -> Bool {
        var capabilities: UnsafeMutablePointer<mailimap_capability_data>?
        bridge.budget.allow(ByteBudget.ordinaryCommand)
        try check(mailimap_capability(imap, &capabilities), "CAPABILITY")
        if let capabilities { mailimap_capability_data_free(capabilities) }
        guard mailimap_has_idle(imap) != 0 else {
            Thread.sleep(forTimeInterval: TimeInterval(min(seconds, 60)))
            return true
        }
        bridge.activity.reset()
        try check(mailimap_idle(imap), "IDLE")
        let heard = bridge.activity.wait(seconds: seconds)
        bridge.budget.allow(ByteBudget.ordinaryCommand)
        try check(mailimap_idle_done(imap), "DONE")
        return heard
    }

    /// CREATE `folder`.
    func create(_ folder: String) throws(MailboxError) {
        bridge.budget.allow(ByteBudget.ordinaryCommand)
        try check(mailimap_create(imap, folder), "CREATE")
    }

    /// APPEND `message` to `folder`, marked \\Seen.
    func append(_ message: [UInt8], to folder: String) throws(MailboxError) {
        bridge.budget.allow(ByteBudget.ordinaryCommand)
        let code = message.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { parley_append_seen(imap, folder, $0.baseAddress, $0.count) }
        }
        try check(code, "APPEND")
    }

    /// LOGOUT, best effort.
    func logout() {
        bridge.budget.allow(ByteBudget.ordinaryCommand)
        // mailimap_logout closes the stream, and the server hangs up right after: the canceller lets go first.
        _ = bridge.canceller.handOver { mailimap_logout(imap) }
    }

    private func fetch(range: (UInt32, UInt32), type: UnsafeMutablePointer<mailimap_fetch_type>?, allowance: Int,
                       command: String) throws(MailboxError) -> [FetchedMessage] {
        guard let set = parley_uid_range(range.0, range.1) else { throw .connection("out of memory") }
        defer { mailimap_set_free(set) }
        return try fetch(set: set, type: type, allowance: allowance, command: command)
    }

    private func fetch(set: UnsafeMutablePointer<mailimap_set>, type: UnsafeMutablePointer<mailimap_fetch_type>?, allowance: Int,
                       command: String) throws(MailboxError) -> [FetchedMessage] {
        guard let type else { throw .connection("out of memory") }
        defer { mailimap_fetch_type_free(type) }
        bridge.budget.allow(ByteBudget.ordinaryCommand + allowance)
        var list: UnsafeMutablePointer<clist>?
        try check(mailimap_uid_fetch(imap, set, type, &list), command)
        defer { if let list { mailimap_fetch_list_free(list) } }
        var messages: [FetchedMessage] = []
        var cursor = parley_list_first(list)
        while let item = cursor {
            var fetched = parley_fetched()
            parley_fetched_read(parley_list_data(item), &fetched)
            if fetched.uid != 0 {
                let raw: [UInt8]? = fetched.has_body == 0 ? nil
                    : fetched.body.map { Array(UnsafeRawBufferPointer(start: $0, count: fetched.body_length)) } ?? []
                messages.append(FetchedMessage(uid: fetched.uid, size: fetched.has_size != 0 ? Int(fetched.size) : raw?.count ?? 0,
                                               flags: UInt8(truncatingIfNeeded: fetched.flags),
                                               internalDate: fetched.internal_date >= 0 ? fetched.internal_date : nil, raw: raw))
            }
            cursor = parley_list_next(item)
        }
        return messages
    }

    private func check(_ code: Int32, _ command: String) throws(MailboxError) {
        let code = Int(code)
        if code == MAILIMAP_NO_ERROR || code == MAILIMAP_NO_ERROR_AUTHENTICATED || code == MAILIMAP_NO_ERROR_NON_AUTHENTICATED { return }
        if let limit = bridge.budget.exceeded { throw .serverSentTooMuch(limit: limit) }
        switch code {
        case MAILIMAP_ERROR_STREAM: throw .connection("the connection broke during \(command)")
        case MAILIMAP_ERROR_PARSE: throw .malformedResponse(command: command)
        case MAILIMAP_ERROR_MEMORY: throw .malformedResponse(command: command)
        default: throw .refused(command: command, reply: Self.inert(parley_last_response(imap)))
        }
    }

    /// The server's own words, printable and short.
    static func inert(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "no reason given" }
        let printable = String(decoding: Array(UnsafeRawBufferPointer(start: text, count: min(strlen(text), 200))), as: UTF8.self)
            .unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }
        let words = String(String.UnicodeScalarView(printable)).trimmingCharacters(in: .whitespaces)
        return words.isEmpty ? "no reason given" : words
    }
}
