import Foundation

/// A file carried by a message: where it is on the server, how to open it, and how to label it.
///
/// Travels inside the end-to-end encrypted content (docs/CLIENT.md §3, key `file`), so only the
/// conversation's devices ever see the key, the name or the thumbnail.
public struct Attachment: Codable, Sendable, Equatable {
    /// The server's file id (API §8).
    public let fileID: Int64
    /// The 32-byte per-file key (never shown; kept sealed in the local store).
    package let key: Data
    /// SHA-256 of the whole encrypted file, as uploaded.
    package let sha256: Data
    /// The plaintext size in bytes.
    public let size: Int64
    /// The file name the sender gave (a label only; never used as a path).
    public let name: String
    /// The MIME type the sender's client detected.
    public let mimeType: String
    /// For images: a small JPEG preview.
    public let thumbnail: Data?
    /// For images: the original width in pixels.
    public let width: Int?
    /// For images: the original height in pixels.
    public let height: Int?

    /// A file's pointer as it travels in content.
    package init(
        fileID: Int64, key: Data, sha256: Data, size: Int64, name: String, mimeType: String, thumbnail: Data?, width: Int?,
        height: Int?
    ) {
        self.fileID = fileID
        self.key = key
        self.sha256 = sha256
        self.size = size
        self.name = name
        self.mimeType = mimeType
        self.thumbnail = thumbnail
        self.width = width
        self.height = height
    }

    enum CodingKeys: String, CodingKey {
        case fileID = "id", key, sha256, size, name, mimeType = "mime", thumbnail, width, height
    }

    /// Set this `userInfo` key to `true` on a `JSONEncoder` to leave the key and digest out (for printing).
    public static let redactSecrets = CodingUserInfoKey(rawValue: "parley.attachment.redactSecrets")!

    /// Encodes every field, except the key and digest when the encoder asks for `redactSecrets`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fileID, forKey: .fileID)
        if encoder.userInfo[Self.redactSecrets] as? Bool != true {
            try container.encode(key, forKey: .key)
            try container.encode(sha256, forKey: .sha256)
        }
        try container.encode(size, forKey: .size)
        try container.encode(name, forKey: .name)
        try container.encode(mimeType, forKey: .mimeType)
        try container.encodeIfPresent(thumbnail, forKey: .thumbnail)
        try container.encodeIfPresent(width, forKey: .width)
        try container.encodeIfPresent(height, forKey: .height)
    }

    /// The largest thumbnail accepted inside a message.
    package static let maximumThumbnail = 48 * 1024

    /// Whether the file is an image (by its MIME type).
    public var isImage: Bool { mimeType.hasPrefix("image/") }

    /// Whether every field is within the documented bounds (docs/CLIENT.md §3).
    package var isValid: Bool {
        guard fileID >= 0, key.count == 32, sha256.count == 32, (0...(1 << 53)).contains(size) else { return false }
        guard (1...255).contains(name.utf8.count), !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return false }
        guard (3...100).contains(mimeType.utf8.count), mimeType.utf8.allSatisfy(Self.mimeByte), mimeType.utf8.filter({ $0 == UInt8(ascii: "/") }).count == 1
        else { return false }
        if let thumbnail, thumbnail.isEmpty || thumbnail.count > Self.maximumThumbnail { return false }
        for side in [width, height] { if let side, !(1...100_000).contains(side) { return false } }
        return true
    }

    private static func mimeByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || Array("/.+-_".utf8).contains(byte)
    }
}
