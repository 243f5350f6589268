import Foundation

/// What travels end-to-end inside every ciphertext (docs/CLIENT.md §3): a versioned JSON object.
package struct MessageContent: Codable, Sendable, Equatable {
    /// Format version: 1.
    package var v: Int = 1
    /// The sender's client message id (also the idempotency key on the server).
    package var id: String
    /// `text` for what a person wrote; `group_title` for a group (re)naming; `file` for a file (its caption in `text`);
    /// `avatar` / `group_avatar` for a new picture of the sender / the group (its key in `file`);
    /// `location_key` for the sender's location key (in `location`, docs/CLIENT.md §11).
    package var type: String
    package var text: String?
    package var replyTo: Int64?
    package var forward: ForwardSource?
    /// The file of a `file` message (added compatibly in v1: older readers ignore it).
    package var file: Attachment?
    /// The key of a `location_key` message (added compatibly in v1; checked when it arrives, not here).
    package var location: LocationKeyContent?
    /// On a re-send answering a retry request: the server id of the message this one stands for
    /// (added compatibly in v1, docs/CLIENT.md §2.1).
    package var resendOf: Int64?
    /// On a `group_title`: the creator's signature, so that any member can pass the title on (docs/CLIENT.md §8.1;
    /// added compatibly in v1).
    package var titleProof: GroupTitleProof?

    enum CodingKeys: String, CodingKey {
        case v, id, type, text
        case replyTo = "reply_to"
        case forward, file, location
        case resendOf = "resend_of"
        case titleProof = "title_proof"
    }

    /// Content of `type` from the message `id`; what a type does not use stays nil.
    package init(
        v: Int = 1, id: String, type: String, text: String? = nil, replyTo: Int64? = nil, forward: ForwardSource? = nil,
        file: Attachment? = nil, location: LocationKeyContent? = nil, resendOf: Int64? = nil, titleProof: GroupTitleProof? = nil
    ) {
        self.v = v
        self.id = id
        self.type = type
        self.text = text
        self.replyTo = replyTo
        self.forward = forward
        self.file = file
        self.location = location
        self.resendOf = resendOf
        self.titleProof = titleProof
    }

    package static let supportedVersion = 1
    /// The types that carry a `file` object (and the only ones that may).
    package static let typesWithFile: Set<String> = ["file", "avatar", "group_avatar"]

    package func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try! encoder.encode(self))
    }

    /// Reads content; anything not version 1 JSON of this shape is refused.
    package static func decode(_ bytes: [UInt8]) throws(ClientFormatError) -> MessageContent {
        guard let content = try? JSONDecoder().decode(MessageContent.self, from: Data(bytes)),
              content.v == supportedVersion, !content.id.isEmpty, content.id.utf8.count <= 64,
              Self.typesWithFile.contains(content.type) == (content.file != nil), content.file?.isValid ?? true,
              (content.type == LocationKeyContent.type) == (content.location != nil), (content.resendOf ?? 1) > 0,
              content.titleProof.map({ $0.isWellFormed && content.type == "group_title" }) ?? true
        else { throw .unreadable }
        return content
    }
}
