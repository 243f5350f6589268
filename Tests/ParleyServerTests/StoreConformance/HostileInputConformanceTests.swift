import Foundation
@testable import ParleyServer
import Testing

/// What the store does with input a handler should never pass but a bug or an attacker might:
/// unknown ids, huge blobs, odd text. Every backend answers with a `StoreError` or stores the
/// value exactly, never crashes, never quotes the value in the error, and stays usable.
@Suite("Store conformance: hostile input")
struct HostileInputConformanceTests {
    @Test("unknown ids give the StoreError SQLite gives", arguments: StoreBackend.allCases)
    func unknownIDs(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let secret = "SECRET-CIPHERTEXT-\(UUID().uuidString)"
            var message = Sample.message(999_999, from: ann, to: [(ann, 1)], clientID: "u1")
            message.envelopes[0].ciphertext = Array(secret.utf8)
            do {
                _ = try await store.insertMessage(message, now: 1)
                Issue.record("a message into an unknown conversation was stored")
            } catch {
                #expect(isUnavailable(error))
                #expect(!"\(error)".contains(secret))
            }
            await #expect(throws: StoreError.self) {
                _ = try await store.toggleReaction(messageID: 999_999, accountID: ann, emoji: "x", now: 1)
            }
            await #expect(throws: StoreError.self) {
                _ = try await store.createFile(ownerID: 999_999, conversationID: 999_999, size: 1, sha256: [], quota: 10, now: 1)
            }
            await #expect(throws: StoreError.self) {
                try await store.addPreKeys(accountID: ann, deviceID: 77, signed: nil, pq: nil, oneTime: [(id: 1, publicKey: [1])])
            }
            await #expect(throws: StoreError.self) { _ = try await store.startRoute(ownerID: 999_999, now: 1) }
            // Updates of rows that do not exist change nothing and are not errors.
            #expect(try await store.setPinned(messageID: 999_999, by: ann, limit: 100, now: 1))
            try await store.softDelete(messageID: 999_999, now: 1)
            try await store.completeFile(fileID: 999_999)
            try await store.deactivateRoute(id: 999_999, now: 1)
            #expect(try await store.markRead(conversationID: 999_999, accountID: ann, upTo: 5) == 0)
            #expect(try await store.confirmDelivery(accountID: ann, deviceID: 1, messageIDs: [-1, 0, Int64.max], now: 1).isEmpty)
            // After all that the store still works.
            #expect(try await store.account(id: ann)?.email == "ann@example.org")
        }
    }

    @Test("a conflict's description never quotes the value that collided", arguments: StoreBackend.allCases)
    func conflictWording(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let email = "secret-\(UUID().uuidString)@example.org"
            _ = try await Sample.activeAccount(store, email)
            do {
                _ = try await store.createPendingAccount(Sample.account(email), verification: Sample.verification(), now: 2)
                Issue.record("a second account with an active e-mail was accepted")
            } catch {
                #expect(isConflict(error))
                #expect(!"\(error)".contains(email))
            }
        }
    }

    @Test("large blobs are stored and read back exactly", arguments: StoreBackend.allCases)
    func largeBlobs(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let big = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            try await store.setAvatar(.account(p.ann), blob: big, now: 1)
            #expect(try await store.avatar(.account(p.ann))?.blob == big)
            var message = Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "big")
            message.envelopes[0].ciphertext = big
            _ = try await store.insertMessage(message, now: 2)
            #expect(try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: 0, limit: 1).first?.ciphertext == big)
        }
    }

    @Test("a checked send with hostile values is refused or fails with a StoreError; nothing is stored", arguments: StoreBackend.allCases)
    func hostileSends(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let conversation = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], now: 1).conversation.id
            var messages: [NewMessage] = []
            for target in [Int64.max, Int64.min, 0, -1] {
                messages.append(Sample.message(target, from: ann, to: [(bob, 1)], clientID: "c\(target)"))
            }
            var extreme = Sample.message(conversation, from: ann, to: [(bob, UInt32.max)], clientID: "'; DROP TABLE messages; --")
            extreme.kind = "\u{202E}'; DELETE FROM envelopes; --"
            extreme.replyTo = Int64.min
            messages.append(extreme)
            messages.append(Sample.message(conversation, from: Int64.max, to: [(bob, 1)], clientID: "stranger"))
            messages.append(Sample.message(conversation, from: ann, to: [(Int64.max, 1), (bob, 1)], clientID: "extra"))
            var nul = Sample.message(conversation, from: ann, to: [(bob, 1)], clientID: "nul\u{0}inside")
            nul.kind = "text\u{0}"
            nul.envelopes = []
            messages.append(nul)
            for message in messages {
                do {
                    guard case .refused = try await store.insertMessage(message, now: 5, checkingMembers: true) else {
                        Issue.record("stored: \(message.clientMessageID)")
                        continue
                    }
                } catch {
                    #expect(error is StoreError, "\(message.clientMessageID): \(error)")
                }
            }
            #expect(try await store.messages(accountID: bob, deviceID: 1, afterTimestamp: 0, limit: 100).isEmpty)
            #expect(try await store.messages(accountID: bob, deviceID: UInt32.max, afterTimestamp: 0, limit: 100).isEmpty)
            // And the store still takes a good message.
            let good = try await store.insertMessage(Sample.message(conversation, from: ann, to: [(bob, 1)], clientID: "good"), now: 6, checkingMembers: true)
            guard case .stored(let stored) = good else {
                Issue.record("a good message was refused after the hostile ones")
                return
            }
            #expect(stored.created)
        }
    }

    @Test("odd text and extreme numbers either round-trip or fail with a StoreError", arguments: StoreBackend.allCases)
    func oddValues(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            for name in ["'; DROP TABLE accounts; --", "emoji 🧪 and RTL \u{202E}", String(repeating: "x", count: 100_000)] {
                try await store.setDisplayName(accountID: ann, name)
                #expect(try await store.account(id: ann)?.displayName == name)
            }
            // NUL in text: PostgreSQL refuses it (TEXT cannot hold U+0000) and stores nothing. SQLite
            // through GRDB stores the text cut at the NUL (docs/OPERATIONS.md §1.5); handlers should
            // refuse NUL before either store sees it. Neither crashes, and the store stays usable.
            do {
                try await store.setDisplayName(accountID: ann, "nul\u{0}inside")
                #expect(backend == .sqlite)
            } catch {
                #expect(backend == .postgres && isUnavailable(error))
                #expect(try await store.account(id: ann)?.displayName == String(repeating: "x", count: 100_000))
            }
            #expect(try await store.messages(accountID: ann, deviceID: UInt32.max, afterTimestamp: Int64.min, limit: Int.max).isEmpty)
            #expect(try await store.messages(accountID: ann, deviceID: 1, afterTimestamp: 0, limit: -1).isEmpty)
            #expect(try await store.registrationCount(since: Int64.min) == 1)
            #expect(try await store.account(id: ann)?.email == "ann@example.org")
        }
    }
}
