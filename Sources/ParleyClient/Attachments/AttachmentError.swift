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
            "the file is \(Self.apart(size, from: limit)), over the limit of \(Self.apart(limit, from: size)); nothing was uploaded "
                + "(send a smaller file, or raise the limit — `parley send --max-size MiB` — for a server that takes more)"
        case .overServerLimit(let size, let limit):
            "the server takes files of at most \(Self.apart(limit, from: size)) once encrypted, and this one is \(Self.apart(size, from: limit)) "
                + "encrypted; nothing was uploaded (it takes a file of at most "
                + "\(Self.mebibytes(AttachmentFormat.largestPlaintext(ciphertextAtMost: limit), decimals: 2)))"
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

    /// `bytes` in MiB with `decimals` decimals, rounded down (a limit is never shown as more than it is).
    static func mebibytes(_ bytes: Int64, decimals: Int = 1) -> String {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let parts = bytes * scale / (1 << 20)
        guard decimals > 0 else { return "\(parts) MiB" }
        let fraction = String(parts % scale)
        return "\(parts / scale).\(String(repeating: "0", count: decimals - fraction.count))\(fraction) MiB"
    }

    /// `bytes` in MiB with as many decimals (one to three) as it takes to read differently from `other`: a file over a
    /// limit is never said to be the limit's size ("at most 64.0 MiB … this one is 64.0 MiB").
    static func apart(_ bytes: Int64, from other: Int64) -> String {
        for decimals in 1...3 where mebibytes(bytes, decimals: decimals) != mebibytes(other, decimals: decimals) {
            return mebibytes(bytes, decimals: decimals)
        }
        return "\(mebibytes(bytes, decimals: 3)) (\(bytes) bytes)"
    }
}
