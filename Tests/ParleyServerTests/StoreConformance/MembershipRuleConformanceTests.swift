import Foundation
@testable import ParleyServer
import Testing

/// Whom a message may be for (`NewMessage.fits`), as each store judges it inside the insert: SQLite runs the Swift
/// rule, PostgreSQL its twin in SQL. Every branch, on both: the two must agree on each.
@Suite("Store conformance: whom a message may be for")
struct MembershipRuleConformanceTests {
    /// Ann (devices 1 and 2) and Bob (device 1) in a group with Cat, who has no device left; Dan is invited and has not joined.
    struct Group {
        let ann: Int64, bob: Int64, cat: Int64, dan: Int64
        let conversation: Int64
    }

    static func group(_ store: any Store) async throws -> Group {
        let ann = try await Sample.activeAccount(store, "ann@example.org")
        let bob = try await Sample.activeAccount(store, "bob@example.org")
        let cat = try await Sample.activeAccount(store, "cat@example.org")
        let dan = try await Sample.activeAccount(store, "dan@example.org")
        _ = try await store.addDevice(accountID: ann, name: "phone", preKeys: Sample.preKeys(), pairingID: nil, limit: 32, now: 2)
        try await store.removeDevice(accountID: cat, deviceID: 1)
        let conversation = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [bob, cat, dan], now: 3).conversation.id
        // Bob and Cat join; Dan stays invited, which is not a member yet.
        for account in [bob, cat] { try await store.setMemberStatus(conversationID: conversation, accountID: account, status: .active, now: 4) }
        return Group(ann: ann, bob: bob, cat: cat, dan: dan, conversation: conversation)
    }

    /// A message from `sender`'s device 1 for these devices; for one device when `directed`.
    static func message(_ g: Group, from sender: Int64, to devices: [(Int64, UInt32)], _ id: String, directed: Bool = false) -> NewMessage {
        var message = Sample.message(g.conversation, from: sender, to: devices, clientID: id)
        message.directed = directed
        return message
    }

    @Test("every device of every member less the sending one is stored; one missing, one extra, the sender's own or a stranger's is refused", arguments: StoreBackend.allCases)
    func everyDevice(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let g = try await Self.group(store)
            let cases: [(String, NewMessage, Bool)] = [
                ("all devices", Self.message(g, from: g.ann, to: [(g.ann, 2), (g.bob, 1)], "a"), true),
                ("from another member", Self.message(g, from: g.bob, to: [(g.ann, 1), (g.ann, 2)], "b"), true),
                ("the sender's other device missing", Self.message(g, from: g.ann, to: [(g.bob, 1)], "c"), false),
                ("a recipient's device missing", Self.message(g, from: g.ann, to: [(g.ann, 2)], "d"), false),
                ("the sending device included", Self.message(g, from: g.ann, to: [(g.ann, 1), (g.ann, 2), (g.bob, 1)], "e"), false),
                ("a stranger's device added", Self.message(g, from: g.ann, to: [(g.ann, 2), (g.bob, 1), (g.dan, 1)], "f"), false),
                ("a device that does not exist", Self.message(g, from: g.ann, to: [(g.ann, 2), (g.bob, 1), (g.bob, 9)], "g"), false),
                ("nothing at all", Self.message(g, from: g.ann, to: [], "h"), false),
                ("from a stranger, for every member's device", Self.message(g, from: g.dan, to: [(g.ann, 1), (g.ann, 2), (g.bob, 1)], "i"), false),
            ]
            try await Self.expect(store, g, cases)
        }
    }

    @Test("a message for one device: a member's device is stored (the sender's other one too); a stranger's or a missing one is refused", arguments: StoreBackend.allCases)
    func oneDevice(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let g = try await Self.group(store)
            let cases: [(String, NewMessage, Bool)] = [
                ("to a member's device", Self.message(g, from: g.ann, to: [(g.bob, 1)], "a", directed: true), true),
                ("to the sender's other device", Self.message(g, from: g.ann, to: [(g.ann, 2)], "b", directed: true), true),
                ("to a stranger's device", Self.message(g, from: g.ann, to: [(g.dan, 1)], "c", directed: true), false),
                ("to a device the member no longer has", Self.message(g, from: g.ann, to: [(g.cat, 1)], "d", directed: true), false),
                ("from a stranger to a member's device", Self.message(g, from: g.dan, to: [(g.bob, 1)], "e", directed: true), false),
            ]
            try await Self.expect(store, g, cases)
        }
    }

    /// Each message stored or refused as expected; a refusal stores nothing and hands back the member devices as
    /// `activeMemberDevices` lists them (Cat with none).
    static func expect(_ store: any Store, _ g: Group, _ cases: [(String, NewMessage, Bool)]) async throws {
        let members = try await store.activeMemberDevices(conversationID: g.conversation).map { "\($0.accountID)/\($0.deviceID.map(String.init) ?? "none")" }
        #expect(Set(members) == ["\(g.ann)/1", "\(g.ann)/2", "\(g.bob)/1", "\(g.cat)/none"])
        for (name, message, fits) in cases {
            #expect(message.fits(try await store.activeMemberDevices(conversationID: g.conversation)) == fits, "the Swift rule: \(name)")
            let before = try await stored(store, g)
            switch try await store.insertMessage(message, now: 100, checkingMembers: true) {
            case .stored(let stored):
                #expect(fits, "stored: \(name)")
                #expect(stored.created, "\(name)")
            case .refused(let seen):
                #expect(!fits, "refused: \(name)")
                #expect(Set(seen.map { "\($0.accountID)/\($0.deviceID.map(String.init) ?? "none")" }) == Set(members), "\(name)")
                #expect(try await stored(store, g) == before, "a refused message was stored anyway: \(name)")
            case .overQuota:
                Issue.record("no limit was set, yet the sender was over it: \(name)")
            }
        }
    }

    /// How many messages wait for the members' devices.
    static func stored(_ store: any Store, _ g: Group) async throws -> Int {
        var count = 0
        for (account, device) in [(g.ann, UInt32(1)), (g.ann, 2), (g.bob, 1), (g.dan, 1)] {
            count += try await store.messages(accountID: account, deviceID: device, afterTimestamp: 0, limit: 1_000).count
        }
        return count
    }
}
