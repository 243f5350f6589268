import Crypto
import Foundation
@testable import ParleyServer
import Testing

@Suite("Encrypted file transfer", .serialized)
struct FileTransferTests {
    static let payload = Data((0..<60_000).map { UInt8(($0 * 7) % 251) })
    static var digest: String { Data(SHA256.hash(data: payload)).base64EncodedString() }

    func chunk(_ offset: Int, _ length: Int) -> String {
        Self.payload[offset..<min(Self.payload.count, offset + length)].base64EncodedString()
    }

    @Test("an upload resumes on a new connection, completes on a matching digest, and members download it")
    func resumeAndDownload() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        let started = try await people.annSocket.call("upload_start", ["conversation_id": conversation, "size": Self.payload.count, "sha256": Self.digest])
        let fileID = try #require(started["file_id"] as? Int)
        #expect(started["chunk_size"] as? Int == 262_144, "the largest chunk, which a client may use; smaller ones still go")
        #expect(try await people.annSocket.call("upload_file", ["file_id": fileID, "offset": 0, "chunk": chunk(0, 24_576)])["received"] as? Int == 24_576)

        // The connection drops; a new one asks where to resume and goes on from there.
        people.annSocket.disconnect()
        let again = try people.server.connect()
        _ = try await people.server.login(people.ann, on: again)
        #expect(try await again.call("upload_status", ["file_id": fileID])["received"] as? Int == 24_576)
        let wrongOffset = try await again.call("upload_file", ["file_id": fileID, "offset": 0, "chunk": chunk(0, 10)])
        #expect(wrongOffset.errorCode == "conflict")
        #expect(try await again.call("download_file", ["file_id": fileID]).errorCode == "not_found")
        _ = try await again.call("upload_file", ["file_id": fileID, "offset": 24_576, "chunk": chunk(24_576, 24_576)])
        let last = try await again.call("upload_file", ["file_id": fileID, "offset": 49_152, "chunk": chunk(49_152, 24_576)])
        #expect(last["complete"] as? Bool == true)

        var downloaded = Data()
        while downloaded.count < Self.payload.count {
            let part = try await people.bobSocket.call("download_file", ["file_id": fileID, "offset": downloaded.count])
            let text = try #require(part["chunk"] as? String)
            downloaded.append(try #require(Data(base64Encoded: text)))
        }
        #expect(downloaded == Self.payload)
        // Asked for no length, a chunk is the small one older clients expect; asked for the largest, all of it at once.
        let first = try await people.bobSocket.call("download_file", ["file_id": fileID, "offset": 0])
        #expect(Data(base64Encoded: try #require(first["chunk"] as? String))?.count == min(24_576, Self.payload.count))
        let whole = try await people.bobSocket.call("download_file", ["file_id": fileID, "offset": 0, "length": 262_144])
        #expect(Data(base64Encoded: try #require(whole["chunk"] as? String)) == Self.payload.prefix(262_144))
        #expect(try await people.bobSocket.call("download_file", ["file_id": fileID, "length": 262_145]).errorCode == "invalid_field")
        try await people.server.stop()
    }

    @Test("a server with a shorter request line offers a chunk that fits it, and such a chunk goes through")
    func aShorterLineOffersASmallerChunk() async throws {
        #expect(FileHandlers.chunkSize(maximumLineLength: 1 << 20) == 262_144)
        #expect(FileHandlers.chunkSize(maximumLineLength: 128 << 10) == 95 << 10)
        #expect(FileHandlers.chunkSize(maximumLineLength: 1_000) == 1_024)
        let people = try await TwoPeople.start { $0.maximumLineLength = 64 << 10 }
        let conversation = try await people.directConversation()
        let started = try await people.annSocket.call("upload_start", ["conversation_id": conversation, "size": Self.payload.count, "sha256": Self.digest])
        let fileID = try #require(started["file_id"] as? Int), offered = try #require(started["chunk_size"] as? Int)
        #expect(offered == 47 << 10)
        var offset = 0
        while offset < Self.payload.count {
            let answer = try await people.annSocket.call("upload_file", ["file_id": fileID, "offset": offset, "chunk": chunk(offset, offered)])
            offset = try #require(answer["received"] as? Int, "\(answer)")
        }
        #expect(offset == Self.payload.count)
        try await people.server.stop()
    }

    @Test("a digest mismatch discards the upload; chunks past the size or too large are refused")
    func integrity() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        let wrong = Data(repeating: 0, count: 32).base64EncodedString()
        let fileID = try #require(try await people.annSocket.call("upload_start", ["conversation_id": conversation, "size": 100, "sha256": wrong])["file_id"] as? Int)
        #expect(try await people.annSocket.call("upload_file", ["file_id": fileID, "offset": 0, "chunk": chunk(0, 101)]).errorCode == "invalid_field")
        let big = Data(count: 262_145).base64EncodedString()
        #expect(try await people.annSocket.call("upload_file", ["file_id": fileID, "offset": 0, "chunk": big]).errorCode == "invalid_field")
        let done = try await people.annSocket.call("upload_file", ["file_id": fileID, "offset": 0, "chunk": chunk(0, 100)])
        #expect(done.errorCode == "invalid_field")
        #expect(try await people.annSocket.call("upload_status", ["file_id": fileID]).errorCode == "not_found")
        try await people.server.stop()
    }

    @Test("strangers cannot download, see or continue someone's upload")
    func authorization() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        let small = Data("tiny".utf8)
        let fileID = try #require(try await people.annSocket.call("upload_start", [
            "conversation_id": conversation, "size": small.count, "sha256": Data(SHA256.hash(data: small)).base64EncodedString(),
        ])["file_id"] as? Int)
        #expect(try await people.bobSocket.call("upload_file", ["file_id": fileID, "offset": 0, "chunk": small.base64EncodedString()]).errorCode == "not_found")
        #expect(try await people.annSocket.call("upload_file", ["file_id": fileID, "offset": 0, "chunk": small.base64EncodedString()])["complete"] as? Bool == true)
        let eve = TestAccount("eve@example.org")
        let eveSocket = try people.server.connect()
        try await people.server.createAccount(eve, on: eveSocket)
        _ = try await people.server.login(eve, on: eveSocket)
        #expect(try await eveSocket.call("download_file", ["file_id": fileID]).errorCode == "not_found")
        #expect(try await eveSocket.call("upload_start", ["conversation_id": conversation, "size": 1, "sha256": Self.digest]).errorCode == "not_found")
        try await people.server.stop()
    }

    @Test("the size cap and the quota are enforced")
    func limits() async throws {
        let server = try await TestServer.start {
            $0.maximumFileSize = 1000
            $0.fileQuota = 1500
        }
        let socket = try server.connect()
        let ann = TestAccount("ann@example.org"), bob = TestAccount("bob@example.org")
        try await server.createAccount(ann, on: socket)
        try await server.createAccount(bob, on: socket)
        _ = try await server.login(ann, on: socket)
        let conversation = try #require(try await socket.call("create_conversation", ["kind": "direct", "members": [bob.email]])["conversation_id"] as? Int)
        #expect(try await socket.call("upload_start", ["conversation_id": conversation, "size": 1001, "sha256": Self.digest]).errorCode == "invalid_field")
        #expect(try await socket.call("upload_start", ["conversation_id": conversation, "size": 1000, "sha256": Self.digest]).ok)
        #expect(try await socket.call("upload_start", ["conversation_id": conversation, "size": 600, "sha256": Self.digest]).errorCode == "quota_exceeded")
        try await server.stop()
    }
}
