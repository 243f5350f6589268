import Foundation
import ParleyClientFormats

/// What this device sent, kept sealed for a while so that a device that could not read it can be sent it again
/// (docs/CLIENT.md §2.1), and which of our messages are re-sends of which.
struct SentLog: Sendable {
    typealias Dependencies = HasDatabase & HasClock & Sendable
    let dependencies: any Dependencies

    /// What this device sent stays available for re-sending this long (the server's default retention).
    static let retention: Int64 = 30 * 86_400_000

    /// One entry: what was sent, where, when, to which devices, and to which it went again.
    struct Record: Codable {
        var conversationID: Int64
        var content: [UInt8]
        var sentAt: Int64
        /// The devices (`account.device`) it was sealed for when it was sent: only these may be sent it again.
        /// Absent in entries from before it was kept, which are then sent to nobody again.
        var recipients: [String]?
        /// The devices (`account.device`) it was sent to again already; each gets it once.
        var resentTo: [String] = []

        /// The accounts some device of which was sent it again.
        var resentAccounts: Set<Int64> { Set(resentTo.compactMap { $0.split(separator: ".").first.flatMap { Int64($0) } }) }

        /// Whether `device` (`account.device`) was one it was sealed for: someone who joined later, or a device
        /// added later, was never meant to read it and is not sent it on request.
        func wasSent(to device: String) -> Bool { recipients?.contains(device) == true }
    }

    /// How the log names a device.
    static func device(account: Int64, device: UInt32) -> String { "\(account).\(device)" }

    /// Remembers what was sent as message `id` to `recipients` (inside the transaction that stores it).
    func record(
        _ id: Int64, conversationID: Int64, content: MessageContent, recipients: [(account: Int64, device: UInt32)], in writer: ClientDatabase.Writer
    ) throws {
        let record = Record(
            conversationID: conversationID, content: content.encoded(), sentAt: dependencies.clock.now(),
            recipients: recipients.map { Self.device(account: $0.account, device: $0.device) })
        try writer.put(Namespace.sent, String(id), Array(try JSONEncoder().encode(record)))
    }

    /// What was sent as message `id`, while it is kept; nil for anything else (or an entry that does not decode).
    func record(_ id: Int64) throws(ClientError) -> Record? {
        try dependencies.database.read { try $0.get(Namespace.sent, String(id)) }
            .flatMap { try? JSONDecoder().decode(Record.self, from: Data($0)) }
    }

    /// Notes that message `id` went again to `device` as our message `resendID`: once per device, and the
    /// re-send's delivery then ticks the original.
    func noteResent(_ id: Int64, record: Record, to device: String, as resendID: Int64?) throws(ClientError) {
        var record = record
        record.resentTo.append(device)
        let updated = Array(try! JSONEncoder().encode(record))
        try dependencies.database.write { writer in
            try writer.put(Namespace.sent, String(id), updated)
            if let resendID { try writer.put(Namespace.resendOf, String(resendID), Array(String(id).utf8)) }
        }
    }

    /// The original message a re-send of ours stands for, if `id` is one.
    func originalOfResend(_ id: Int64) throws(ClientError) -> Int64? {
        try dependencies.database.read { try $0.get(Namespace.resendOf, String(id)) }.flatMap { Int64(String(decoding: $0, as: UTF8.self)) }
    }

    /// Forgets sent messages older than the retention period (the server has deleted them by then too).
    func prune() throws(ClientError) {
        let cutoff = dependencies.clock.now() - Self.retention
        let entries = try dependencies.database.read { try $0.all(Namespace.sent) }
        let expired = entries.filter { (try? JSONDecoder().decode(Record.self, from: Data($0.value)))?.sentAt ?? 0 < cutoff }
        guard !expired.isEmpty else { return }
        try dependencies.database.write { writer in for entry in expired { try writer.delete(Namespace.sent, entry.key) } }
    }
}
