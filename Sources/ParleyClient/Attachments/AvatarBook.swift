import Crypto
import Foundation
import ParleyClientFormats
import ParleyImage
import ParleyWire
import ParleyCrypto

/// Pictures of people and groups: a JPEG encrypted on the client (FORMATS.md §16 in one piece) and stored by
/// the server as an opaque blob (API.md §7); its key reaches contacts inside an end-to-end message (`avatar` to
/// each direct conversation, `group_avatar` to the group), sent through the account. Kept here: the key of each
/// picture under the vault, the encrypted blobs cached on disk under their digest, and the making of a new one
/// (shrunk, re-encoded as JPEG, sealed under a fresh key).
public struct AvatarBook: Sendable {
    typealias Dependencies = HasServer & HasAccount & HasDatabase & HasAccountDirectory & HasRandom & Sendable
    let dependencies: any Dependencies

    /// Sets this account's picture from a JPEG or PNG and tells every direct conversation its key.
    public func set(image: URL) async throws(ClientError) {
        let (blob, pointer) = try make(from: image)
        _ = try await dependencies.server.call(API.UpdateAvatar.self, .init(avatar: blob))
        let me = try await dependencies.account.confirmedAccountID()
        try dependencies.database.write { writer in try Self.remember(pointer, for: Self.record(account: me), in: writer) }
        for conversation in try await ConversationBook(dependencies: dependencies).listed() where conversation.kind == "direct" {
            try await announce(pointer, as: "avatar", to: conversation.id)
        }
    }

    /// Sets a group's picture and tells its members the key.
    public func setGroup(image: URL, of conversationID: Int64) async throws(ClientError) {
        let (blob, pointer) = try make(from: image)
        _ = try await dependencies.server.call(API.UpdateGroupAvatar.self, .init(conversationID: conversationID, avatar: blob))
        try dependencies.database.write { writer in try Self.remember(pointer, for: Self.record(group: conversationID), in: writer) }
        try await announce(pointer, as: "group_avatar", to: conversationID)
    }

    /// A person's picture as JPEG bytes, or nil when they never sent this device one.
    public func of(_ accountID: Int64) async throws(ClientError) -> [UInt8]? {
        try await picture(Self.record(account: accountID)) { () async throws(ClientError) in
            try await dependencies.server.call(API.GetAvatar.self, .init(accountID: accountID)).avatar
        }
    }

    /// A group's picture as JPEG bytes, or nil when none was set.
    public func ofGroup(_ conversationID: Int64) async throws(ClientError) -> [UInt8]? {
        try await picture(Self.record(group: conversationID)) { () async throws(ClientError) in
            try await dependencies.server.call(API.GetGroupAvatar.self, .init(conversationID: conversationID)).avatar
        }
    }

    /// Sends a picture's key end to end, now.
    private func announce(_ pointer: Attachment, as type: String, to conversationID: Int64) async throws(ClientError) {
        try await dependencies.account.deliverNow(MessageContent(id: dependencies.random.clientMessageID(), type: type, file: pointer),
                                                  kind: type, to: conversationID)
    }

    /// The longest side of an avatar, in pixels.
    public static let side = 256
    /// The largest picture file taken as input.
    static let maximumInput: Int64 = 32 << 20

    /// Where a person's picture key is kept.
    static func record(account: Int64) -> String { "account/\(account)" }
    /// Where a group's picture key is kept.
    static func record(group: Int64) -> String { "group/\(group)" }

    /// Remembers the key of a picture in `writer`'s transaction.
    static func remember(_ pointer: Attachment, for record: String, in writer: ClientDatabase.Writer) throws {
        try writer.put(AvatarNamespace.name, record, Array(try JSONEncoder().encode(pointer)))
    }

    /// The picture of `record` as JPEG bytes, or nil when no key for one is known: from the cache when its blob
    /// is there and whole, else from `fetch` — whose blob must have the digest the owner sent end to end.
    func picture(
        _ record: String, isolation: isolated (any Actor)? = #isolation, fetch: () async throws(ClientError) -> [UInt8]
    ) async throws(ClientError) -> [UInt8]? {
        let stored = try dependencies.database.read { try $0.get(AvatarNamespace.name, record) }
        guard let stored, let pointer = try? JSONDecoder().decode(Attachment.self, from: Data(stored)) else { return nil }
        let cache = dependencies.directory.appendingPathComponent("avatars", isDirectory: true)
        let cached = cache.appendingPathComponent(Hex.lower(pointer.sha256) + ".prla")
        var blob = (try? Data(contentsOf: cached)).map(Array.init)
        if let bytes = blob, Array(SHA256.hash(data: bytes)) != Array(pointer.sha256) { blob = nil }   // damaged cache: fetch again
        if blob == nil {
            let fetched = try await fetch()
            // The server may only hand out the picture whose digest the owner sent end to end.
            guard Array(SHA256.hash(data: fetched)) == Array(pointer.sha256) else { throw .attachment(.digestMismatch) }
            try? PrivateFiles.makeDirectory(cache)
            try? PrivateFiles.write(Data(fetched), to: cached)
            blob = fetched
        }
        do { return try AttachmentFormat.open(blob!, key: Array(pointer.key), plaintextSize: pointer.size) } catch { throw .attachment(error) }
    }

    /// Reads, shrinks and re-encodes the picture at `url`, then encrypts it under a fresh key: the blob for the
    /// server and the pointer (key, digest, size) for the message that announces it.
    func make(from url: URL) throws(ClientError) -> (blob: [UInt8], pointer: Attachment) {
        let size = try LocalFile.regularFileSize(url)
        guard size <= Self.maximumInput else { throw .attachment(.tooLarge(size: size, limit: Self.maximumInput)) }
        guard let bytes = try? Data(contentsOf: url) else { throw .attachment(.unreadable("cannot read \(url.lastPathComponent)")) }
        let jpeg: [UInt8], width: Int, height: Int
        do {
            let decoded = try ImageCodec.decode(Array(bytes), minimumSide: Self.side)
            let small = decoded.image.shrunk(toFit: Self.side)
            jpeg = try ImageCodec.encodeJPEG(small, quality: 80)
            (width, height) = (small.width, small.height)
        } catch {
            throw .invalidInput("a picture must be a JPEG or PNG: \(error)")
        }
        let random = dependencies.random
        let key = random.bytes(AttachmentFormat.keyLength)
        let blob = AttachmentFormat.seal(jpeg, key: key, salt: random.bytes(AttachmentFormat.saltLength))
        guard blob.count <= API.Avatar.maximumBytes else { throw .invalidInput("the picture is too detailed to fit 256 KiB; try a simpler image") }
        let pointer = Attachment(fileID: 0, key: Data(key), sha256: Data(SHA256.hash(data: blob)), size: Int64(jpeg.count),
                                 name: "avatar.jpg", mimeType: "image/jpeg", thumbnail: nil, width: width, height: height)
        return (blob, pointer)
    }
}

/// The `records` namespace holding picture keys: `account/ID` and `group/ID` → the `file` object of the message.
enum AvatarNamespace {
    static let name = "avatar_key"
}
