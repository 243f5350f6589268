/// What can go wrong with a file in a conversation, each with what to do about it.
///
/// Descriptions name sizes and message ids, never keys, file contents or digests.
public enum AttachmentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is larger than the configured cap; nothing was uploaded.
    case tooLarge(size: Int64, limit: Int64)
    /// The encrypted file is larger than the server takes (`limit` bytes); nothing was uploaded.
    case overServerLimit(size: Int64, limit: Int64)
    /// The file to send could not be read.
    case unreadable(String)
    /// The message has no file attached.
    case noAttachment(messageID: Int64)
    /// The encrypted file is not in the attachment format (truncated, wrong size, bad header).
    case malformed(String)
    /// The encrypted file was made by a newer Parley.
    case unsupportedVersion
    /// The downloaded bytes do not match the digest the sender put in the message.
    case digestMismatch
    /// A chunk failed to authenticate: wrong key or altered bytes.
    case cannotDecrypt
    /// The output file could not be written.
    case output(String)
    /// The server kept answering that the transfer sent too many requests, however slowly it went.
    case serverBusy

    public var description: String {
        switch self {
        case .tooLarge(let size, let limit):
            "the file is \(size) bytes, over the limit of \(limit) bytes; nothing was uploaded (send a smaller file or raise the limit)"
        case .overServerLimit(let size, let limit):
            "the server takes files of at most \(Self.mebibytes(limit)) once encrypted, and this one is \(Self.mebibytes(size)) encrypted; "
                + "nothing was uploaded (send a smaller file)"
        case .unreadable(let why): "cannot read the file to send: \(why)"
        case .noAttachment(let id): "message \(id) has no file attached"
        case .malformed(let why): "the encrypted file is malformed: \(why)"
        case .unsupportedVersion: "the encrypted file was made by a newer Parley; update to open it"
        case .digestMismatch: "the downloaded file does not match the digest in the message: it was altered or damaged on the server; nothing was written"
        case .cannotDecrypt: "could not decrypt or authenticate the file (it was altered); nothing was written"
        case .output(let why): "cannot write the downloaded file: \(why)"
        case .serverBusy:
            "the server kept refusing the transfer as too many requests, however slowly it went; try again in a minute (an upload resumes where it stopped)"
        }
    }

    /// `bytes` in MiB with one decimal, rounded down (a limit is never shown as more than it is).
    static func mebibytes(_ bytes: Int64) -> String {
        let tenths = bytes * 10 / (1 << 20)
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
