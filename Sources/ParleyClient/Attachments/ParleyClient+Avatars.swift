import Crypto
import Foundation
import ParleyImage
import ParleyWire

/// Pictures of people and groups: a JPEG encrypted on the client (FORMATS.md §16 in one piece) and stored by
/// the server as an opaque blob (API.md §7); its key reaches contacts inside an end-to-end message
/// (`avatar` to each direct conversation, `group_avatar` to the group), and fetched blobs are cached on disk
/// still encrypted, named by their digest.
extension ParleyClient {
    /// The longest side of an avatar, in pixels.
    public static let avatarSide = 256

    /// Sets this account's picture from a JPEG or PNG and tells every direct conversation its key.
    public func setAvatar(image: URL) async throws(ClientError) {
        let (blob, pointer) = try makeAvatar(from: image)
        _ = try await call(API.UpdateAvatar.self, .init(avatar: blob))
        let me = try identity().accountID
        try database.write { writer in try self.rememberAvatar(pointer, for: Self.avatarRecord(account: me), in: writer) }
        for conversation in try await conversations() where conversation.kind == "direct" {
            _ = try await deliver(avatarEntry(type: "avatar", pointer: pointer, conversationID: conversation.id))
        }
    }

    /// Sets a group's picture and tells its members the key.
    public func setGroupAvatar(image: URL, of conversationID: Int64) async throws(ClientError) {
        let (blob, pointer) = try makeAvatar(from: image)
        _ = try await call(API.UpdateGroupAvatar.self, .init(conversationID: conversationID, avatar: blob))
        try database.write { writer in try self.rememberAvatar(pointer, for: Self.avatarRecord(group: conversationID), in: writer) }
        _ = try await deliver(avatarEntry(type: "group_avatar", pointer: pointer, conversationID: conversationID))
    }

    /// A person's picture as JPEG bytes, or nil when they never sent this device one.
    public func avatar(of accountID: Int64) async throws(ClientError) -> [UInt8]? {
        try await avatar(record: Self.avatarRecord(account: accountID)) { () async throws(ClientError) in
            try await call(API.GetAvatar.self, .init(accountID: accountID))
        }
    }

    /// A group's picture as JPEG bytes, or nil when none was set.
    public func groupAvatar(of conversationID: Int64) async throws(ClientError) -> [UInt8]? {
        try await avatar(record: Self.avatarRecord(group: conversationID)) { () async throws(ClientError) in
            try await call(API.GetGroupAvatar.self, .init(conversationID: conversationID))
        }
    }

    static func avatarRecord(account: Int64) -> String { "account/\(account)" }
    static func avatarRecord(group: Int64) -> String { "group/\(group)" }

    /// Remembers the key of a picture (called when an `avatar`/`group_avatar` message arrives or is sent).
    func rememberAvatar(_ pointer: Attachment, for record: String, in writer: ClientDatabase.Writer) throws {
        try writer.put(AvatarNamespace.name, record, Array(try JSONEncoder().encode(pointer)))
    }

    /// The cached or fetched blob, checked against the digest from the message, then opened.
    private func avatar(
        record: String, fetch: () async throws(ClientError) -> API.Avatar
    ) async throws(ClientError) -> [UInt8]? {
        let stored = try database.read { try $0.get(AvatarNamespace.name, record) }
        guard let stored, let pointer = try? JSONDecoder().decode(Attachment.self, from: Data(stored)) else { return nil }
        let cache = directory.appendingPathComponent("avatars", isDirectory: true)
        let cached = cache.appendingPathComponent(Array(pointer.sha256).map { String(format: "%02x", $0) }.joined() + ".prla")
        var blob = (try? Data(contentsOf: cached)).map(Array.init)
        if let bytes = blob, Array(SHA256.hash(data: bytes)) != Array(pointer.sha256) { blob = nil }   // damaged cache: fetch again
        if blob == nil {
            let fetched = try await fetch().avatar
            // The server may only hand out the picture whose digest the owner sent end to end.
            guard Array(SHA256.hash(data: fetched)) == Array(pointer.sha256) else { throw .attachment(.digestMismatch) }
            try? PrivateFiles.makeDirectory(cache)
            try? PrivateFiles.write(Data(fetched), to: cached)
            blob = fetched
        }
        do { return try AttachmentFormat.open(blob!, key: Array(pointer.key), plaintextSize: pointer.size) } catch { throw .attachment(error) }
    }

    /// Reads, shrinks and re-encodes a picture, then encrypts it under a fresh key.
    private func makeAvatar(from url: URL) throws(ClientError) -> (blob: [UInt8], pointer: Attachment) {
        let size = try Self.regularFileSize(url)
        guard size <= 32 << 20 else { throw .attachment(.tooLarge(size: size, limit: 32 << 20)) }
        guard let bytes = try? Data(contentsOf: url) else { throw .attachment(.unreadable("cannot read \(url.lastPathComponent)")) }
        let jpeg: [UInt8], width: Int, height: Int
        do {
            let decoded = try ImageCodec.decode(Array(bytes), minimumSide: Self.avatarSide)
            let small = decoded.image.shrunk(toFit: Self.avatarSide)
            jpeg = try ImageCodec.encodeJPEG(small, quality: 80)
            (width, height) = (small.width, small.height)
        } catch {
            throw .invalidInput("a picture must be a JPEG or PNG: \(error)")
        }
        let key = dependencies.random.bytes(AttachmentFormat.keyLength)
        let blob = AttachmentFormat.seal(jpeg, key: key, salt: dependencies.random.bytes(AttachmentFormat.saltLength))
        guard blob.count <= 256 * 1024 else { throw .invalidInput("the picture is too detailed to fit 256 KiB; try a simpler image") }
        let pointer = Attachment(fileID: 0, key: Data(key), sha256: Data(SHA256.hash(data: blob)), size: Int64(jpeg.count),
                                 name: "avatar.jpg", mimeType: "image/jpeg", thumbnail: nil, width: width, height: height)
        return (blob, pointer)
    }

    private func avatarEntry(type: String, pointer: Attachment, conversationID: Int64) -> OutboxEntry {
        OutboxEntry(conversationID: conversationID, content: MessageContent(id: newClientMessageID(), type: type, file: pointer),
                    kind: type, forwardOf: nil, created: dependencies.clock.now())
    }
}

/// The `records` namespace holding picture keys: `account/ID` and `group/ID` → the `file` object of the message.
enum AvatarNamespace {
    static let name = "avatar_key"
}
