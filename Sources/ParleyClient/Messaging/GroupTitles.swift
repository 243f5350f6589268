import Foundation
import ParleyClientFormats
import ParleyWire

/// A group's title (docs/CLIENT.md §8, §8.1): its creator sets it, signs it and sends it end to end to the
/// members, and remembers who has the current one, so that each member who joins later gets it too — on the
/// `member_added` notification and at every connect. Members who hold the signed title pass it on as well (two per
/// newcomer, `GroupTitleRelay.relayers`), so a newcomer need not wait for the creator. Sealing and sending to each
/// device is the account's (`AccountCalling`).
struct GroupTitles: Sendable {
    typealias Dependencies = HasAccount & HasServer & HasDatabase & HasRandom & HasClock & Sendable
    let dependencies: any Dependencies

    private var account: any AccountCalling { dependencies.account }
    private var database: ClientDatabase { dependencies.database }

    /// Refuses a title that is too long, or that shows nothing: empty, or only spaces and invisible characters.
    static func check(_ title: String) throws(ClientError) {
        guard title.utf8.count <= 256 else { throw .invalidInput("a group title has at most 256 bytes") }
        let shown = title.unicodeScalars.filter { !$0.properties.isWhitespace && !$0.properties.isDefaultIgnorableCodePoint && $0.properties.generalCategory != .control }
        guard !shown.isEmpty else { throw .invalidInput("a group title needs something to show: it is empty or only spaces") }
    }

    /// Renames a group (its creator only): the title travels end to end to the members as a control message,
    /// signed so that any of them can pass it on.
    func set(_ title: String, of conversationID: Int64) async throws(ClientError) {
        try Self.check(title)
        let me = try await account.confirmedAccountID()
        let conversation: Conversation
        if let known = try ConversationBook(dependencies: dependencies).stored(conversationID) {
            conversation = known
        } else {
            conversation = try await ConversationBook(dependencies: dependencies).refresh(conversationID)
        }
        guard conversation.kind == "group" else { throw .invalidInput("conversation \(conversationID) is not a group") }
        guard conversation.creatorID == me else { throw .invalidInput("only the group's creator renames it") }
        let signed = try await sign(title, of: conversationID)
        let content = MessageContent(id: dependencies.random.clientMessageID(), type: "group_title", text: title, titleProof: signed.proof)
        // Everyone active now gets it (sending refuses to leave anyone out); whoever joins later gets it from
        // `share`. Read before sending: someone joining meanwhile gets it twice rather than never.
        let members = try await ConversationBook(dependencies: dependencies).refresh(conversationID).members
        try database.write { try ConversationBook.setTitle(title, of: conversationID, in: $0) }
        try await account.deliverNow(content, kind: "group_title", to: conversationID)
        try database.write { try SignedTitle.setHolders(Set(members), of: conversationID, in: $0) }
    }

    /// Signs the title of each group this account is the creator of again, where the kept proof is not this
    /// account's current key's — after a key rotation, or in a group taken over from a creator who left — and sends
    /// it to every member; a member who has that title already takes the new proof without a line in the
    /// conversation. Where the proofs hold (the usual case) it sends nothing. A group whose title cannot go out now
    /// does not keep the others from theirs (a lost connection ends it all). `takenOverOnly` (at every connect and
    /// `member_removed`) looks only at groups this device saw pass to this account, so the usual connect checks no
    /// proofs at all.
    func signAgain(takenOverOnly: Bool = false) async throws(ClientError) {
        let me = try await account.confirmedAccountID()
        let groups = try titledGroups().filter { $0.creatorID == me && (!takenOverOnly || $0.formerCreators?.isEmpty == false) }
        for group in groups {
            guard let title = group.title, try await currentProof(of: group.id, title: title) == nil else { continue }
            do {
                let signed = try await sign(title, of: group.id)
                let content = MessageContent(id: dependencies.random.clientMessageID(), type: "group_title", text: title, titleProof: signed.proof)
                try await account.deliverNow(content, kind: "group_title", to: group.id)
            } catch {
                switch error {
                case .notConnected, .disconnected, .timeout: throw error
                default: continue
                }
            }
        }
    }

    /// Someone joined a group: they get its title from its creator and from the members chosen to pass it on.
    func memberJoined(_ conversationID: Int64) async throws(ClientError) {
        try await share(of: ConversationBook(dependencies: dependencies).refresh(conversationID))
    }

    /// Sends the current title of each group with a title to the members that do not have it yet and that this
    /// account is to give it to. A group whose title cannot go out now is tried again at the next connect; the
    /// others still get theirs (a lost connection ends it all).
    func shareWithNewMembers() async throws(ClientError) {
        let groups = try titledGroups()
        for group in groups {
            do {
                try await share(of: group)
            } catch {
                switch error {
                case .notConnected, .disconnected, .timeout: throw error
                default: continue
                }
            }
        }
    }

    /// Sends `group`'s title to the members that joined since this device last counted who has it: all of them
    /// if this account created the group, else those it is one of the two to pass it on to, and only with the
    /// creator's proof.
    func share(of group: Conversation) async throws(ClientError) {
        let me = try await account.confirmedAccountID()
        guard group.kind == "group", let title = group.title else { return }
        let holders = try database.read { try SignedTitle.holders(of: group.id, in: $0) }
        let newcomers = group.members.filter { $0 != me && $0 != group.creatorID && !holders.contains($0) }
        guard !newcomers.isEmpty else { return }
        let signed: SignedTitle
        let recipients: [Int64]
        if group.creatorID == me {
            if let kept = try await currentProof(of: group.id, title: title) { signed = kept } else { signed = try await sign(title, of: group.id) }
            recipients = newcomers
        } else {
            guard let held = try database.read({ try SignedTitle.current(of: group.id, in: $0) }), held.title == title else { return }
            signed = held
            recipients = newcomers.filter {
                GroupTitleRelay.relayers(for: $0, in: group.id, members: group.members, creator: group.creatorID).contains(me)
            }
        }
        if !recipients.isEmpty {
            let content = MessageContent(id: dependencies.random.clientMessageID(), type: "group_title", text: title, titleProof: signed.proof)
            try await account.sendPairwise(content, kind: "group_title", conversationID: group.id, toMembers: recipients)
        }
        try database.write { try SignedTitle.setHolders(holders.union(newcomers), of: group.id, in: $0) }
    }

    /// The groups stored on this device that have a title.
    private func titledGroups() throws(ClientError) -> [Conversation] {
        try database.read { try $0.all(Namespace.conversation) }
            .compactMap { try? JSONDecoder().decode(Conversation.self, from: Data($0.value)) }
            .filter { $0.kind == "group" && $0.title != nil }
    }

    /// The members known to have the group's current title.
    func holders(_ conversationID: Int64) throws(ClientError) -> Set<Int64> {
        try database.read { try SignedTitle.holders(of: conversationID, in: $0) }
    }

    /// The kept proof of `title`, if it is this title's and made with this account's current identity key.
    private func currentProof(of conversationID: Int64, title: String) async throws(ClientError) -> SignedTitle? {
        guard let kept = try database.read({ try SignedTitle.current(of: conversationID, in: $0) }), kept.title == title else { return nil }
        let key = try await account.identityPublicKey()
        return kept.proof.holds(title: title, conversationID: conversationID, identityKey: key) ? kept : nil
    }

    /// Signs `title` with a version past the last one (the clock, or one more than the last if the clock is
    /// behind it), and keeps the proof.
    private func sign(_ title: String, of conversationID: Int64) async throws(ClientError) -> SignedTitle {
        let last = try database.read { try SignedTitle.current(of: conversationID, in: $0) }?.proof.version ?? 0
        let version = min(max(dependencies.clock.now(), last + 1), GroupTitleProof.maximumVersion)
        let proof = try await account.signGroupTitle(title, of: conversationID, version: version)
        let signed = SignedTitle(title: title, proof: proof)
        try database.write { writer in
            let holders = try SignedTitle.holders(of: conversationID, in: writer.reader)
            try SignedTitle.keep(signed, of: conversationID, members: Array(holders), in: writer)
        }
        return signed
    }
}
