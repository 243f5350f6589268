import Foundation
@testable import ParleyClient
import ParleyCrypto
import Testing

/// The trust part alone, on a sealed database and no server: statuses from what is stored (and from what is
/// stored wrong), and scanned codes that must change nothing.
@Suite("Trust, the part")
struct TrustComponentTests {
    @Test("a status follows the stored record; without one a known key is trusted, an unknown one unverified")
    func statusFromTheStore() throws {
        let account = try ScratchAccount("trust-status")
        let trust = Trust(dependencies: account.context())
        #expect(try trust.status(of: 7) == .unverified)
        try account.database.write { try $0.put(Namespace.identity, "7", [UInt8](repeating: 1, count: 32)) }
        #expect(try trust.status(of: 7) == .trusted)
        let verified = Array(try JSONEncoder().encode(TrustRecord(status: .verified)))
        try account.database.write { try $0.put(Namespace.trust, "7", verified) }
        #expect(try trust.status(of: 7) == .verified)
        // A record that does not decode counts as none: the key is still trusted on first use, never "verified".
        try account.database.write { try $0.put(Namespace.trust, "7", Array("{\"status\":\"verified\"".utf8)) }
        #expect(try trust.status(of: 7) == .trusted)
    }

    @Test("a pending changed key blocks sending to its conversations, and is the key verification is about")
    func aPendingKeyBlocksSending() throws {
        let account = try ScratchAccount("trust-pending")
        let trust = Trust(dependencies: account.context())
        let old = [UInt8](repeating: 1, count: 32), new = [UInt8](repeating: 2, count: 32)
        try account.database.write {
            try $0.put(Namespace.identity, "7", old)
            try $0.put(Namespace.verified, "7", old)
        }
        #expect(try trust.noticeBlockedKeyChange(of: 7, offeredKey: old, conversation: nil) == false, "the pinned key is no change")
        #expect(try trust.noticeBlockedKeyChange(of: 7, offeredKey: new, conversation: 3))
        #expect(try trust.noticeBlockedKeyChange(of: 7, offeredKey: new, conversation: 3) == false, "reported once per key")
        #expect(try trust.currentKey(of: 7) == new)
        #expect(throws: ClientError.self) { try trust.ensureSendable(Self.direct(3, with: 7), me: 1) }
        #expect(throws: Never.self) { try trust.ensureSendable(Self.direct(4, with: 8), me: 1) }
        // The warning entry is in conversation 3, and new to the person.
        let warnings = try MessageHistory(dependencies: account.context()).messages(in: 3, limit: 10)
        #expect(warnings.count == 1 && warnings[0].kind == Message.keyChangeKind && warnings[0].isLocalEntry)
        #expect(try account.database.read { try $0.get(Namespace.unseen, String(warnings[0].id)) } != nil)
    }

    private static func direct(_ id: Int64, with other: Int64) -> Conversation {
        Conversation(id: id, kind: "direct", members: [1, other], creatorID: 1, title: nil, unread: 0, favourite: false)
    }

    @Test("garbage, cut, oversized and own codes are refused in words, and nothing stored changes")
    func scannedGarbageChangesNothing() async throws {
        let account = try ScratchAccount("trust-scan")
        let context = AccountContext(database: account.database, directory: account.url, email: "ann@example.org")
        let trust = Trust(dependencies: context)
        let own = try VerificationPayload(accountID: "ann@example.org", identityKey: [UInt8](repeating: 5, count: 32)).encoded()
        let inputs: [[UInt8]] = [[], [0xFF], Array(own.prefix(own.count / 2)), [UInt8](repeating: 0x41, count: 1 << 20),
                                 Array("\u{1B}]52;c;aGk=\u{07}".utf8), own]
        for input in inputs {
            do {
                _ = try await trust.verify(scannedPayload: input)
                Issue.record("a code of \(input.count) bytes was accepted")
            } catch {
                guard case .invalidInput(let words) = error else { Issue.record("\(error)"); continue }
                #expect(!words.isEmpty && !words.contains("\u{1B}"))
            }
        }
        for space in [Namespace.trust, Namespace.verified, Namespace.identity] {
            #expect(try account.database.read { try $0.all(space) }.isEmpty)
        }
    }
}
