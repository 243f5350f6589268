import Foundation
@testable import ParleyClient
import ParleyCrypto
import ParleyTestSupport
import ParleyVault
import Synchronization
import Testing

/// Pictures as a component: made, remembered, fetched once and cached, checked against the digest the owner sent.
@Suite("Avatar book")
struct AvatarBookTests {
    let account: ScratchAccount
    var scratch: TemporaryDirectory { account.scratch }
    var database: ClientDatabase { account.database }
    let book: AvatarBook

    init() throws {
        account = try ScratchAccount("avatars")
        book = AvatarBook(dependencies: account.context())
    }

    /// A picture from the image tests' vectors, made into an avatar and its key remembered as bob's.
    func made() throws -> (blob: [UInt8], size: Int64) {
        let picture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ParleyImageTests/Vectors/gray.jpg")
        let made = try book.make(from: picture)
        try database.write { try AvatarBook.remember(made.pointer, for: AvatarBook.record(account: 2), in: $0) }
        return (made.blob, made.pointer.size)
    }

    @Test("a picture is fetched once, then read from the cache; a damaged cache is fetched again")
    func fetchedOnceThenCached() async throws {
        let (blob, size) = try made()
        let fetches = Mutex(0)
        func picture() async throws -> [UInt8]? {
            try await book.picture(AvatarBook.record(account: 2)) { () async throws(ClientError) -> [UInt8] in
                fetches.withLock { $0 += 1 }
                return blob
            }
        }
        let first = try #require(try await picture())
        #expect(first.starts(with: [0xFF, 0xD8]), "not a JPEG")
        #expect(Int64(first.count) == size)
        #expect(try await picture() == first)
        #expect(fetches.withLock { $0 } == 1, "the cached blob was not used")
        let cache = scratch.url.appendingPathComponent("avatars")
        let cached = try #require(try FileManager.default.contentsOfDirectory(at: cache, includingPropertiesForKeys: nil).first)
        try Data([0, 1, 2]).write(to: cached)
        #expect(try await picture() == first)
        #expect(fetches.withLock { $0 } == 2, "a damaged cache was trusted")
    }

    @Test("a blob whose digest is not the one announced is refused, and not cached")
    func wrongDigest() async throws {
        var (blob, _) = try made()
        blob[blob.count - 1] ^= 1
        let tampered = blob
        await #expect(throws: ClientError.attachment(.digestMismatch)) {
            try await book.picture(AvatarBook.record(account: 2)) { () async throws(ClientError) in tampered }
        }
        let cache = scratch.url.appendingPathComponent("avatars")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: cache.path))?.isEmpty ?? true)
    }

    @Test("no known key means no picture, and nothing is fetched")
    func unknown() async throws {
        let result = try await book.picture(AvatarBook.record(group: 9)) { () async throws(ClientError) -> [UInt8] in
            Issue.record("fetched a picture nobody announced")
            return []
        }
        #expect(result == nil)
    }

    @Test("what is not a picture is refused in words")
    func notAPicture() throws {
        let text = scratch.url.appendingPathComponent("notes.txt")
        try Data("not a picture".utf8).write(to: text)
        #expect(throws: ClientError.self) { try book.make(from: text) }
        #expect(throws: ClientError.self) { try book.make(from: scratch.url.appendingPathComponent("missing.jpg")) }
    }
}
