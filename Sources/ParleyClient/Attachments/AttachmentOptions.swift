/// How `send(file:to:)` treats a file.
public struct AttachmentOptions: Sendable {
    /// The largest file a default server takes: 64 MiB once encrypted (API §11), 63.98 MiB before.
    public static let defaultMaximumSize = AttachmentFormat.largestPlaintext(ciphertextAtMost: 64 << 20)
    /// The largest file accepted, in bytes; a larger one is refused before anything is encrypted or uploaded.
    public var maximumSize: Int64 = Self.defaultMaximumSize
    /// The thumbnail's longest side in pixels, for JPEG and PNG images.
    public var thumbnailSide = 160
    /// A caption sent with the file.
    public var caption: String?
    /// The name shown to the recipients (defaults to the file's own name).
    public var name: String?
    /// How long to wait for the connection to come back before giving up on an interrupted transfer.
    public var reconnectWait: Duration = .seconds(60)
    /// Called after every chunk, and when a transfer resumes.
    public var progress: (@Sendable (TransferProgress) async -> Void)?

    /// The defaults: what a default server takes, 160 px thumbnails.
    public init() {}
}

/// Where a transfer stands.
public struct TransferProgress: Sendable, Equatable {
    /// Encrypted bytes transferred so far.
    public let done: Int64
    /// Encrypted bytes in all.
    public let total: Int64
    /// Set when the transfer just resumed after a dropped connection: the offset the server had.
    public let resumedAt: Int64?

    /// A progress report.
    public init(done: Int64, total: Int64, resumedAt: Int64? = nil) {
        self.done = done
        self.total = total
        self.resumedAt = resumedAt
    }
}
