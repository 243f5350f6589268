import Foundation
import ParleyClientFormats

/// A group's title with its creator's proof (docs/CLIENT.md §8.1), and the records a device keeps of titles: the
/// proof of the current one (to pass on), a copy another member passed on (until it is checked), and who has it.
/// Static, to be used inside a database transaction (the receive path's).
struct SignedTitle: Codable, Sendable, Equatable {
    /// The kind a `group_title` passed on by a member other than the creator is stored as: never shown.
    static let relayKind = "group_title_relay"

    var title: String
    var proof: GroupTitleProof

    /// The proof of `conversationID`'s current title, if this device has one.
    static func current(of conversationID: Int64, in reader: ClientDatabase.Reader) throws -> SignedTitle? {
        try read(Namespace.titleProof, conversationID, in: reader)
    }

    /// Keeps the creator's proof of the title just taken, and counts `members` (those this device knew of then)
    /// as having it; a title without a proof forgets the old one, which no longer matches.
    static func keep(_ signed: SignedTitle?, of conversationID: Int64, members: [Int64], in writer: ClientDatabase.Writer) throws {
        if let signed {
            try writer.put(Namespace.titleProof, String(conversationID), Array(try JSONEncoder().encode(signed)))
        } else {
            try writer.delete(Namespace.titleProof, String(conversationID))
        }
        try setHolders(Set(members), of: conversationID, in: writer)
    }

    /// Keeps a copy another member passed on, unless one with a larger version already waits.
    static func stashRelayed(_ signed: SignedTitle, of conversationID: Int64, in writer: ClientDatabase.Writer) throws {
        if let waiting: SignedTitle = try read(Namespace.relayedTitle, conversationID, in: writer.reader),
           waiting.proof.version >= signed.proof.version { return }
        try writer.put(Namespace.relayedTitle, String(conversationID), Array(try JSONEncoder().encode(signed)))
    }

    /// The copies passed on that wait to be checked, by conversation.
    static func relayed(in reader: ClientDatabase.Reader) throws -> [(conversationID: Int64, signed: SignedTitle)] {
        try reader.all(Namespace.relayedTitle).compactMap { key, value in
            guard let id = Int64(key), let signed = try? JSONDecoder().decode(SignedTitle.self, from: Data(value)) else { return nil }
            return (id, signed)
        }
    }

    /// The members known to have the group's current title.
    static func holders(of conversationID: Int64, in reader: ClientDatabase.Reader) throws -> Set<Int64> {
        try reader.get(Namespace.titleHolders, String(conversationID))
            .flatMap { try? JSONDecoder().decode(Set<Int64>.self, from: Data($0)) } ?? []
    }

    static func setHolders(_ members: Set<Int64>, of conversationID: Int64, in writer: ClientDatabase.Writer) throws {
        try writer.put(Namespace.titleHolders, String(conversationID), Array(try JSONEncoder().encode(members.sorted())))
    }

    private static func read(_ namespace: String, _ conversationID: Int64, in reader: ClientDatabase.Reader) throws -> SignedTitle? {
        try reader.get(namespace, String(conversationID)).flatMap { try? JSONDecoder().decode(SignedTitle.self, from: Data($0)) }
    }
}
