import Crypto
import Foundation
@testable import ParleyClient
import ParleyClientFormats
import ParleyProtocol
import Testing

/// What waits to be asked for again and what waits to be answered (docs/CLIENT.md §2.1), without the actor or a
/// server: the queues decide, the actor only seals and sends.
@Suite("Retry queues")
struct RetryQueuesTests {
    /// Ann's device 1 (account 1), confirmed.
    struct Setup {
        let account: ScratchAccount
        let book: AccountKeyBook
        let queues: RetryQueues

        init() throws {
            account = try ScratchAccount("retry")
            var keys = AccountKeyBookTests.sampleKeys()
            keys.accountID = 1
            keys.deviceID = 1
            book = AccountKeyBook(keys, database: account.database)
            queues = RetryQueues(keys: book, dependencies: account.context())
        }

        func unreadable(_ id: Int64, from sender: Int64 = 2, device: UInt32 = 1, in conversation: Int64 = 9, kind: String = "text") throws {
            let message = Message(
                id: id, conversationID: conversation, senderID: sender, senderDevice: device, timestamp: id, text: "", kind: kind,
                replyTo: nil, forwardedFrom: nil, reactions: [:], pinned: false, deleted: false, deliveredTo: [], undecryptable: true,
                attachment: nil)
            try account.database.write { writer in try queues.noteUnreadable(message, in: writer) }
        }
    }

    @Test("unreadable messages are asked for per sending device and conversation, signed, at most 32 a request and 64 kept; never this device's own or a control message")
    func outgoingRequests() throws {
        let setup = try Setup()
        for id in 1...70 { try setup.unreadable(Int64(id)) }
        try setup.unreadable(100, device: 2)
        try setup.unreadable(101, in: 10)
        try setup.unreadable(102, from: 1, device: 1)        // this very device
        try setup.unreadable(103, kind: RetryRequest.kind)   // a control message
        let ready = try setup.queues.outgoing()
        #expect(ready.count == 3)
        let main = try #require(ready.first { $0.key == "2.1.9" })
        #expect(main.request.messageIDs == Array(7...38), "the oldest 6 of 70 were dropped, then 32 asked for")
        #expect(main.request.accountID == 1 && main.request.deviceID == 1 && main.request.recipientAccountID == 2)
        #expect(main.request.isSigned(by: setup.book.current.identity.publicKey))
        #expect(!main.request.isSigned(by: Array(Curve25519.Signing.PrivateKey().publicKey.rawRepresentation)))

        // Settled while another unreadable message arrived: the rest and the newcomer wait for the next request.
        try setup.unreadable(71)
        try setup.queues.settle(main)
        let next = try #require(try setup.queues.outgoing().first { $0.key == "2.1.9" })
        #expect(next.request.messageIDs == Array(39...70))
        try setup.queues.settle(next)
        #expect(try setup.queues.outgoing().first { $0.key == "2.1.9" }?.request.messageIDs == [71])
    }

    @Test("malformed entries are dropped, not sent; an unconfirmed device asks for nothing")
    func malformedOutgoing() throws {
        let setup = try Setup()
        try setup.account.database.write { writer in
            try writer.put(Namespace.retryOut, "2.1", Array("[1]".utf8))
            try writer.put(Namespace.retryOut, "2.1.9", Array("not json".utf8))
            try writer.put(Namespace.retryOut, "2.x.9", Array("[1]".utf8))
            try writer.put(Namespace.retryOut, "3.1.9", Array("[]".utf8))
        }
        #expect(try setup.queues.outgoing().isEmpty)
        #expect(try setup.account.database.read { try $0.all(Namespace.retryOut) }.isEmpty)

        let unconfirmed = RetryQueues(keys: AccountKeyBook(AccountKeyBookTests.sampleKeys(), database: setup.account.database),
                                      dependencies: setup.account.context())
        #expect(throws: ClientError.notConfirmed) { _ = try unconfirmed.outgoing() }
    }

    @Test("a request is kept only when it is for this device, matches its message and is signed by the sender's known key")
    func incomingRequests() throws {
        let setup = try Setup()
        let bob = Curve25519.Signing.PrivateKey()
        try setup.account.database.write { try $0.put(Namespace.identity, "2", Array(bob.publicKey.rawRepresentation)) }
        func request(from account: Int64 = 2, to device: UInt32 = 1, in conversation: Int64 = 9, signedBy key: Curve25519.Signing.PrivateKey) -> RetryRequest {
            RetryRequest(accountID: account, deviceID: 1, recipientAccountID: 1, recipientDeviceID: device, conversationID: conversation,
                         created: 0, messageIDs: [5], signingKey: key)
        }
        func keep(_ request: RetryRequest, messageID: Int64, sender: Int64 = 2, senderDevice: UInt32 = 1) throws -> Bool {
            let message = Message(
                id: messageID, conversationID: 9, senderID: sender, senderDevice: senderDevice, timestamp: 0, text: "", kind: RetryRequest.kind,
                replyTo: nil, forwardedFrom: nil, reactions: [:], pinned: false, deleted: false, deliveredTo: [], undecryptable: false,
                attachment: nil)
            return try setup.account.database.write { writer in try setup.queues.keep(request, from: message, in: writer) }
        }
        #expect(try keep(request(signedBy: bob), messageID: 1))
        #expect(try !keep(request(signedBy: Curve25519.Signing.PrivateKey()), messageID: 2), "forged by the server")
        #expect(try !keep(request(to: 2, signedBy: bob), messageID: 3), "for another device")
        #expect(try !keep(request(in: 8, signedBy: bob), messageID: 4), "names another conversation than its message")
        #expect(try !keep(request(from: 3, signedBy: bob), messageID: 5, sender: 3), "a sender whose key is not known")
        // This account's other device signs with the account's own identity key, known without a stored entry.
        let own = setup.book.current.identity.privateKey
        let fromOtherDevice = RetryRequest(accountID: 1, deviceID: 2, recipientAccountID: 1, recipientDeviceID: 1, conversationID: 9,
                                           created: 0, messageIDs: [5], signingKey: own)
        #expect(try !keep(fromOtherDevice, messageID: 6, sender: 1, senderDevice: 1), "the message says device 1 sent it, the request device 2")
        #expect(try keep(fromOtherDevice, messageID: 7, sender: 1, senderDevice: 2))

        try setup.account.database.write { try $0.put(Namespace.retryIn, "8", [0xFF, 0x00]) }
        let waiting = try setup.queues.incoming()
        #expect(Set(waiting.map(\.key)) == ["1", "7"], "the garbage entry is dropped")
        #expect(waiting.first { $0.key == "1" }?.request.isSigned(by: Array(bob.publicKey.rawRepresentation)) == true)
        for entry in waiting { try setup.queues.answered(entry.key) }
        #expect(try setup.queues.incoming().isEmpty)
        #expect(try setup.account.database.read { try $0.all(Namespace.retryIn) }.isEmpty)
    }
}
