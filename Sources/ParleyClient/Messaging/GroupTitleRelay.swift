import Crypto
import Foundation
import Logging
import ParleyClientFormats
import ParleyCrypto
import ParleyWire

/// Titles passed on between members (docs/CLIENT.md §8.1): which members pass a title on to a newcomer, and the
/// check of a copy another member passed on, against the creator's identity key, before it renames anything.
struct GroupTitleRelay: Sendable {
    typealias Dependencies = HasDatabase & HasServer & Sendable
    let dependencies: any Dependencies
    private let logger = Logger(label: "parley.client")

    /// Members other than the creator who pass the title on to one newcomer.
    static let relayersPerNewcomer = 2

    init(dependencies: any Dependencies) {
        self.dependencies = dependencies
    }

    /// The members besides the creator who pass `conversationID`'s title on to `newcomer`: the two whose SHA-256 of
    /// (conversation, newcomer, member), each 8 bytes big-endian, is smallest. Every member computes the same ones.
    static func relayers(for newcomer: Int64, in conversationID: Int64, members: [Int64], creator: Int64) -> Set<Int64> {
        let ranked = Set(members).subtracting([newcomer, creator]).map { member -> (digest: [UInt8], member: Int64) in
            var bytes: [UInt8] = []
            for value in [conversationID, newcomer, member] { bytes.appendBigEndian(UInt64(bitPattern: value)) }
            return (Array(SHA256.hash(data: bytes)), member)
        }
        .sorted { $0.digest.lexicographicallyPrecedes($1.digest) }
        return Set(ranked.prefix(relayersPerNewcomer).map(\.member))
    }

    /// Checks each copy another member passed on against its creator's identity key (the recorded one, else the
    /// server's) and takes it if the signature holds and it is newer than the title this device has. Returns the
    /// groups renamed with their new titles. A copy of a group not stored yet, or whose creator's key cannot be
    /// asked for now, waits.
    @discardableResult
    func settle() async -> [(conversationID: Int64, title: String)] {
        let database = dependencies.database
        guard let waiting = try? database.read({ try SignedTitle.relayed(in: $0) }), !waiting.isEmpty else { return [] }
        var renamed: [(conversationID: Int64, title: String)] = []
        for (conversationID, signed) in waiting {
            guard let conversation = try? database.read({ try Self.conversation(conversationID, in: $0) }) else { continue }
            guard let key = await creatorKey(conversation.creatorID) else { continue }
            var holds = signed.proof.holds(title: signed.title, conversationID: conversationID, identityKey: key ?? [])
            // The group may have passed to an heir since this device last read it (its creator left, API.md §5):
            // a copy that the recorded creator did not sign is checked once more against the creator the server
            // names now. The device reads the new creator into its own record at its next conversation refresh.
            if !holds, let heir = await currentCreator(conversationID), heir != conversation.creatorID {
                guard let heirKey = await creatorKey(heir) else { continue }
                holds = signed.proof.holds(title: signed.title, conversationID: conversationID, identityKey: heirKey ?? [])
            }
            do {
                let taken = try database.write { writer throws -> Bool in
                    let current = try SignedTitle.current(of: conversationID, in: writer.reader)
                    let newer = signed.proof.version > (current?.proof.version ?? 0)
                    let take = holds && newer
                    if take {
                        try ConversationBook.setTitle(signed.title, of: conversationID, in: writer)
                        try SignedTitle.keep(signed, of: conversationID, members: conversation.members, in: writer)
                    }
                    // What was checked goes; a newer copy that came meanwhile waits for the next round.
                    if let still = try SignedTitle.relayed(in: writer.reader).first(where: { $0.conversationID == conversationID }),
                       still.signed == signed {
                        try writer.delete(Namespace.relayedTitle, String(conversationID))
                    }
                    return take
                }
                if taken { renamed.append((conversationID, signed.title)) } else {
                    logger.debug("a group title passed on was not taken", metadata: ["conversation": "\(conversationID)", "signed": "\(holds)"])
                }
            } catch {
                logger.debug("could not store a group title passed on", metadata: ["conversation": "\(conversationID)"])
            }
        }
        return renamed
    }

    /// The creator's identity key: the recorded one, else the server's answer (an empty key when the server has
    /// none, so the copy is dropped); nil when it cannot be asked now (the copy waits).
    private func creatorKey(_ creator: Int64) async -> [UInt8]?? {
        if let recorded = try? dependencies.database.read({ try $0.get(Namespace.identity, String(creator)) }) { return .some(recorded) }
        do {
            let answer = try await dependencies.server.call(API.GetIdentityKeys.self, .init(accountIDs: [creator]))
            return .some(answer.keys.first { $0.accountID == creator }?.identityKey)
        } catch .server {
            return .some(nil)
        } catch {
            return nil
        }
    }

    /// Who the server says holds the group's creator rights now; nil when it cannot be asked or names none.
    private func currentCreator(_ conversationID: Int64) async -> Int64? {
        try? await dependencies.server.call(API.GetConversation.self, .init(conversationID: conversationID)).creatorID
    }

    private static func conversation(_ id: Int64, in reader: ClientDatabase.Reader) throws -> Conversation? {
        try reader.get(Namespace.conversation, String(id)).flatMap { try? JSONDecoder().decode(Conversation.self, from: Data($0)) }
    }
}
