import Foundation
@testable import ParleyServer
import Testing

/// The `contacts` table is kept by database triggers (SQLiteContactsSchema, PostgresContactsSchema); the server reads
/// an account's contacts from it alone. Here a seeded walk of every store operation that changes who shares a
/// conversation with whom — direct conversations with and without a request, groups, invitations, every member
/// status, answers to requests by reply and by choice, blocks, deletion of conversations and of accounts, the
/// retention sweep — runs beside a plain model of the rules, and after each step every account's contacts, read from
/// the store, must be the model's.
@Suite("Store conformance: the contacts table follows every change")
struct ContactsTableConformanceTests {
    @Test(arguments: StoreBackend.allCases)
    func followsEveryChange(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            var walk = ContactsWalk(seed: 0x5EED_C0FFEE)
            for index in 0..<9 {
                walk.model.accounts.append(try await Sample.activeAccount(store, "p\(index)@example.org"))
            }
            for step in 0..<240 {
                let done: String
                do {
                    done = try await walk.step(store)
                } catch {
                    Issue.record("step \(step) failed: \(error); the steps before: \(walk.history.suffix(8))")
                    return
                }
                for account in walk.model.accounts {
                    let read = try await store.contactIDs(accountID: account)
                    let expected = walk.model.contacts(of: account)
                    #expect(read == expected, "step \(step) (\(done)): contacts of \(account) read \(read), the rules say \(expected); before: \(walk.history.suffix(8))")
                    if read != expected { return }
                }
                if step % 20 == 19 {
                    for a in walk.model.accounts {
                        for b in walk.model.accounts {
                            #expect(try await store.areContacts(a, b) == walk.model.contacts(of: a).contains(b), "step \(step): areContacts(\(a), \(b))")
                        }
                    }
                }
            }
            #expect(walk.counts.keys.filter { $0 != "nothing" }.count == 12, "the walk took every kind of step: \(walk.counts)")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aBigGroupDeletedAtOnce(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            var people: [Int64] = []
            for index in 0..<40 { people.append(try await Sample.activeAccount(store, "m\(index)@example.org")) }
            let group = try await store.createConversation(kind: .group, creatorID: people[0], memberIDs: Array(people.dropFirst()), now: 10).conversation
            for person in people.dropFirst() {
                try await store.setMemberStatus(conversationID: group.id, accountID: person, status: .active, now: 11)
            }
            let pair = try await store.createConversation(kind: .direct, creatorID: people[1], memberIDs: [people[2]], now: 12).conversation
            #expect(try await store.contactIDs(accountID: people[5]).count == 39)
            try await store.deleteConversation(conversationID: group.id, now: 13)
            for person in people where person != people[1] && person != people[2] {
                #expect(try await store.contactIDs(accountID: person).isEmpty)
            }
            #expect(try await store.contactIDs(accountID: people[1]) == [people[2]], "the pair still share their own conversation")
            try await store.deleteConversation(conversationID: pair.id, now: 14)
            #expect(try await store.contactIDs(accountID: people[1]).isEmpty)
        }
    }
}

/// The rules of who is whose contact, kept in plain Swift beside the store, and a seeded walk of store operations.
struct ContactsWalk {
    struct Member {
        var status: MemberStatus
        var request: RequestState?
        /// When the status last changed (the store's `joined_at`): who inherits a group goes by it.
        var joinedAt: Int64 = 0
    }

    struct Conversation {
        var direct: Set<Int64>?
        var live = true
        var deletedAt: Int64?
        var members: [Int64: Member] = [:]
        /// A group's creator (nil for a direct conversation).
        var creator: Int64?
    }

    struct Model {
        var accounts: [Int64] = []
        var conversations: [Int64: Conversation] = [:]
        var blocks: Set<[Int64]> = []

        func contacts(of account: Int64) -> [Int64] {
            var found: Set<Int64> = []
            for conversation in conversations.values where conversation.live {
                guard let mine = conversation.members[account], mine.status == .active, mine.request == nil else { continue }
                for (other, member) in conversation.members where other != account && member.status == .active && member.request == nil {
                    found.insert(other)
                }
            }
            return found.filter { !blocks.contains([account, $0]) && !blocks.contains([$0, account]) }.sorted()
        }
    }

    var model = Model()
    var counts: [String: Int] = [:]
    /// What was done, step by step (for the message when the store and the model part).
    var history: [String] = []
    private var random: UInt64
    private var now: Int64 = 100

    init(seed: UInt64) {
        random = seed
    }

    private mutating func next(_ bound: Int) -> Int {
        random &+= 0x9E37_79B9_7F4A_7C15  // SplitMix64
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }

    private mutating func anyAccount() -> Int64 { model.accounts[next(model.accounts.count)] }

    private mutating func anyConversation() -> Int64? {
        let ids = model.conversations.keys.sorted()
        return ids.isEmpty ? nil : ids[next(ids.count)]
    }

    /// One operation, chosen at random, done to the store and the model; returns what it was.
    mutating func step(_ store: any Store) async throws -> String {
        now += 10
        let kind: String
        switch next(100) {
        case 0..<14: kind = try await direct(store)
        case 14..<22: kind = try await group(store)
        case 22..<42: kind = try await memberStatus(store)
        case 42..<50: kind = try await answer(store)
        case 50..<58: kind = try await reply(store)
        case 58..<62: kind = try await dropMember(store)
        case 62..<68: kind = try await block(store)
        case 68..<72: kind = try await unblock(store)
        case 72..<80: kind = try await deleteConversation(store)
        case 80..<83: kind = try await sweep(store)
        case 83..<86: kind = try await deleteAccount(store)
        default: kind = try await invite(store)
        }
        counts[String(kind.prefix { $0 != " " }), default: 0] += 1
        history.append(kind)
        return kind
    }

    private mutating func direct(_ store: any Store) async throws -> String {
        let a = anyAccount(), b = anyAccount()
        guard a != b else { return "nothing" }
        let request: RequestState? = next(2) == 0 ? .pending : nil
        let (record, created) = try await store.createConversation(kind: .direct, creatorID: a, memberIDs: [b], request: request, now: now)
        let existing = model.conversations.first { $0.value.live && $0.value.direct == [a, b] }
        #expect(created == (existing == nil), "a direct conversation between \(a) and \(b) is made once")
        guard created else { return "direct again" }
        model.conversations = model.conversations.filter { $0.value.direct != [a, b] }  // a deleted one is replaced
        model.conversations[record.id] = Conversation(
            direct: [a, b], members: [a: Member(status: .active), b: Member(status: .active, request: request)])
        return (request == nil ? "direct" : "direct request") + " \(record.id): \(a)→\(b)"
    }

    private mutating func group(_ store: any Store) async throws -> String {
        let creator = anyAccount()
        let invited = Array(Set((0..<next(5)).map { _ in anyAccount() }).subtracting([creator])).sorted()
        let record = try await store.createConversation(kind: .group, creatorID: creator, memberIDs: invited, now: now).conversation
        var conversation = Conversation(direct: nil, members: [creator: Member(status: .active, joinedAt: now)], creator: creator)
        for person in invited { conversation.members[person] = Member(status: .invited, joinedAt: now) }
        model.conversations[record.id] = conversation
        return "group \(record.id) by \(creator) inviting \(invited)"
    }

    private mutating func memberStatus(_ store: any Store) async throws -> String {
        guard let id = anyConversation() else { return "nothing" }
        let conversation = model.conversations[id]!
        let members = conversation.members.keys.sorted()
        // Mostly someone already in it; now and then someone new to a group (the row is inserted). A direct
        // conversation never takes a third person.
        let newcomer = conversation.direct == nil && (members.isEmpty || next(4) == 0)
        guard newcomer || !members.isEmpty else { return "nothing" }
        let account = newcomer ? anyAccount() : members[next(members.count)]
        let statuses: [MemberStatus] = [.active, .active, .invited, .left, .removed, .withdrawn]
        let status = statuses[next(statuses.count)]
        try await store.setMemberStatus(conversationID: id, accountID: account, status: status, now: now)
        model.conversations[id]!.members[account, default: Member(status: status)].status = status
        model.conversations[id]!.members[account]!.joinedAt = now
        return "status \(status.rawValue) of \(account) in \(id)"
    }

    private mutating func invite(_ store: any Store) async throws -> String {
        guard let id = anyConversation(), model.conversations[id]!.live, model.conversations[id]!.direct == nil else { return "nothing" }
        let account = anyAccount()
        guard model.conversations[id]!.members[account] == nil else { return "nothing" }
        #expect(try await store.invite(conversationID: id, accountID: account, seats: 256, now: now))
        model.conversations[id]!.members[account] = Member(status: .invited, joinedAt: now)
        return "invite"
    }

    private mutating func answer(_ store: any Store) async throws -> String {
        guard let id = anyConversation() else { return "nothing" }
        let members = model.conversations[id]!.members.keys.sorted()
        guard !members.isEmpty else { return "nothing" }
        let account = members[next(members.count)]
        let answers: [RequestState?] = [nil, .declined, .pending]
        let answer = answers[next(answers.count)]
        try await store.setRequestState(conversationID: id, accountID: account, answer)
        model.conversations[id]!.members[account]!.request = answer
        return "answer \(answer?.rawValue ?? "accepted") by \(account) in \(id)"
    }

    /// A message from someone who owes an answer: writing answers it.
    private mutating func reply(_ store: any Store) async throws -> String {
        let owing = model.conversations.filter(\.value.live).flatMap { id, conversation in
            conversation.members.filter { $0.value.status == .active && $0.value.request != nil }.map { (id, $0.key) }
        }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        guard !owing.isEmpty else { return "nothing" }
        let (id, sender) = owing[next(owing.count)]
        _ = try await store.insertMessage(Sample.message(id, from: sender, to: [(sender, 1)], clientID: "m\(now)"), now: now)
        model.conversations[id]!.members[sender]!.request = nil
        return "reply by \(sender) in \(id)"
    }

    /// A member row of a group deleted (the server does it to a declined invitation; here to any member). Never in a
    /// direct conversation: the server never does that, and its starter could then not be deleted.
    private mutating func dropMember(_ store: any Store) async throws -> String {
        guard let id = anyConversation(), model.conversations[id]!.direct == nil else { return "nothing" }
        let members = model.conversations[id]!.members.keys.sorted()
        guard !members.isEmpty else { return "nothing" }
        let account = members[next(members.count)]
        try await store.deleteMember(conversationID: id, accountID: account)
        model.conversations[id]!.members[account] = nil
        return "member row \(account) deleted from \(id)"
    }

    private mutating func block(_ store: any Store) async throws -> String {
        let blocker = anyAccount(), blocked = anyAccount()
        guard blocker != blocked else { return "nothing" }
        #expect(try await store.block(blocked, by: blocker, limit: 100, now: now))
        model.blocks.insert([blocker, blocked])
        // Every request the blocker owes in a conversation the blocked one is in is declined.
        for (id, conversation) in model.conversations where conversation.members[blocked] != nil {
            if conversation.members[blocker]?.request == .pending { model.conversations[id]!.members[blocker]!.request = .declined }
        }
        return "block \(blocked) by \(blocker)"
    }

    private mutating func unblock(_ store: any Store) async throws -> String {
        guard let pair = model.blocks.sorted(by: { $0.lexicographicallyPrecedes($1) }).first else { return "nothing" }
        try await store.unblock(pair[1], by: pair[0])
        model.blocks.remove(pair)
        return "unblock"
    }

    private mutating func deleteConversation(_ store: any Store) async throws -> String {
        guard let id = anyConversation(), model.conversations[id]!.live else { return "nothing" }
        try await store.deleteConversation(conversationID: id, now: now)
        model.conversations[id]!.live = false
        model.conversations[id]!.deletedAt = now
        return "conversation \(id) deleted"
    }

    /// Conversations deleted more than the TTL ago go for good, direct ones too (their member rows first).
    private mutating func sweep(_ store: any Store) async throws -> String {
        let policy = RetentionPolicy(days: 1)
        now += policy.timeToLive + 1
        _ = try await store.sweepExpired(now: now, policy: policy)
        model.conversations = model.conversations.filter(\.value.live)
        return "sweep"
    }

    private mutating func deleteAccount(_ store: any Store) async throws -> String {
        guard model.accounts.count > 6 else { return "nothing" }
        let account = anyAccount()
        #expect(try await store.deleteAccount(id: account) != nil)
        model.accounts.removeAll { $0 == account }
        model.blocks = model.blocks.filter { !$0.contains(account) }
        // Its direct conversations go with it; it leaves every group. A group it was in or made passes to the active
        // member who joined first, if it made it; with no active member left, it goes (`GroupDeparture`).
        let touched = model.conversations.filter { $0.value.direct == nil && ($0.value.members[account] != nil || $0.value.creator == account) }.keys
        model.conversations = model.conversations.filter { $0.value.direct?.contains(account) != true }
        for id in model.conversations.keys { model.conversations[id]!.members[account] = nil }
        for id in touched {
            let heir = model.conversations[id]!.members.filter { $0.value.status == .active }
                .min { ($0.value.joinedAt, $0.key) < ($1.value.joinedAt, $1.key) }?.key
            guard let heir else {
                model.conversations[id] = nil
                continue
            }
            if model.conversations[id]!.creator == account { model.conversations[id]!.creator = heir }
        }
        return "account \(account) deleted"
    }
}
