import Foundation
import ParleyWire

/// Pictures of people and groups: a JPEG encrypted on the client (FORMATS.md §16 in one piece) and stored by
/// the server as an opaque blob (API.md §7); its key reaches contacts inside an end-to-end message
/// (`avatar` to each direct conversation, `group_avatar` to the group), and fetched blobs are cached on disk
/// still encrypted, named by their digest (`AvatarBook` keeps and makes them; this sends and fetches).
extension ParleyClient {
    /// The longest side of an avatar, in pixels.
    public static let avatarSide = AvatarBook.side

    /// Sets this account's picture from a JPEG or PNG and tells every direct conversation its key.
    public func setAvatar(image: URL) async throws(ClientError) {
        let (blob, pointer) = try avatars.make(from: image)
        _ = try await call(API.UpdateAvatar.self, .init(avatar: blob))
        let me = try identity().accountID
        try database.write { writer in try AvatarBook.remember(pointer, for: AvatarBook.record(account: me), in: writer) }
        for conversation in try await conversations() where conversation.kind == "direct" {
            _ = try await deliver(avatarEntry(type: "avatar", pointer: pointer, conversationID: conversation.id))
        }
    }

    /// Sets a group's picture and tells its members the key.
    public func setGroupAvatar(image: URL, of conversationID: Int64) async throws(ClientError) {
        let (blob, pointer) = try avatars.make(from: image)
        _ = try await call(API.UpdateGroupAvatar.self, .init(conversationID: conversationID, avatar: blob))
        try database.write { writer in try AvatarBook.remember(pointer, for: AvatarBook.record(group: conversationID), in: writer) }
        _ = try await deliver(avatarEntry(type: "group_avatar", pointer: pointer, conversationID: conversationID))
    }

    /// A person's picture as JPEG bytes, or nil when they never sent this device one.
    public func avatar(of accountID: Int64) async throws(ClientError) -> [UInt8]? {
        try await avatars.picture(AvatarBook.record(account: accountID)) { () async throws(ClientError) in
            try await call(API.GetAvatar.self, .init(accountID: accountID)).avatar
        }
    }

    /// A group's picture as JPEG bytes, or nil when none was set.
    public func groupAvatar(of conversationID: Int64) async throws(ClientError) -> [UInt8]? {
        try await avatars.picture(AvatarBook.record(group: conversationID)) { () async throws(ClientError) in
            try await call(API.GetGroupAvatar.self, .init(conversationID: conversationID)).avatar
        }
    }

    private func avatarEntry(type: String, pointer: Attachment, conversationID: Int64) -> OutboxEntry {
        OutboxEntry(conversationID: conversationID, content: MessageContent(id: newClientMessageID(), type: type, file: pointer),
                    kind: type, forwardOf: nil, created: dependencies.clock.now())
    }
}
