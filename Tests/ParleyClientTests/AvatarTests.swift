import Foundation
import GRDB
@testable import ParleyClient
import ParleyImage
import Testing

@Suite("Client: avatars of people and groups")
struct AvatarTests {
    static func picture(width: Int, height: Int, in directory: URL, name: String) throws -> URL {
        var pixels = [UInt8](repeating: 40, count: width * height * 3)
        for i in 0..<(width * height) { pixels[i * 3] = UInt8(i % width * 255 / width); pixels[i * 3 + 2] = UInt8(i / width * 255 / height) }
        let jpeg = try ImageCodec.encodeJPEG(try #require(RGBImage(width: width, height: height, pixels: pixels)))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(jpeg).write(to: url)
        return url
    }

    @Test func aPersonsPictureReachesContactsEncryptedCachedAndChecked() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann"), bob = try await harness.person("bob")
        let annID = try #require(await ann.accountID)
        _ = try await ann.startConversation(with: "bob@example.org")
        #expect(try await bob.avatars.of(annID) == nil)

        try await ann.avatars.set(image: try Self.picture(width: 640, height: 480, in: harness.root, name: "ann.jpg"))
        try await eventually("bob learns the picture's key") { try await bob.avatars.of(annID) != nil }
        let picture = try #require(try await bob.avatars.of(annID))
        let decoded = try ImageCodec.decode(picture)
        #expect(decoded.width == 256 && decoded.height == 192)
        #expect(try await ann.avatars.of(annID) == picture)

        // Cached on disk, still encrypted, named by digest; the server holds the same opaque bytes.
        let cache = bob.directory.appendingPathComponent("avatars")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(files.count == 1 && files[0].hasSuffix(".prla"))
        let cached = Array(try Data(contentsOf: cache.appendingPathComponent(files[0])))
        #expect(cached.starts(with: Array("PRLA".utf8)) && !cached.starts(with: [0xFF, 0xD8]))
        let server = try serverDatabase(harness)
        let stored = try await server.read { try Data.fetchOne($0, sql: "SELECT blob FROM avatars WHERE owner_kind = 'account'") }
        #expect(stored.map(Array.init) == cached)

        // A server that swaps the blob is caught by the digest from the message (once the cache is gone).
        try await server.write { try $0.execute(sql: "UPDATE avatars SET blob = ? WHERE owner_kind = 'account'", arguments: [Data(repeating: 7, count: 300)]) }
        #expect(try await bob.avatars.of(annID) == picture, "the cache answers without the server")
        try FileManager.default.removeItem(at: cache)
        await #expect(throws: ClientError.attachment(.digestMismatch)) { try await bob.avatars.of(annID) }

        let notAnImage = harness.root.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: notAnImage)
        await #expect(throws: ClientError.self) { try await ann.avatars.set(image: notAnImage) }
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func aGroupPictureAndAFileReachTheMembers() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann"), bob = try await harness.person("bob")
        let group = try await ann.groups.create(title: "Crag", inviting: ["bob@example.org"])
        _ = try await bob.groups.accept(group.id)
        try await ann.avatars.setGroup(image: try Self.picture(width: 100, height: 300, in: harness.root, name: "crag.jpg"), of: group.id)
        try await eventually("bob learns the group picture") { try await bob.avatars.ofGroup(group.id) != nil }
        let decoded = try ImageCodec.decode(try #require(try await bob.avatars.ofGroup(group.id)))
        #expect(decoded.width == 85 && decoded.height == 256)   // shrunk to 256 px on its longest side

        // Files work in groups too: every member downloads what one member sent.
        let photo = try Self.picture(width: 300, height: 200, in: harness.root, name: "route.jpg")
        let sent = try #require(try await ann.send(file: photo, to: group.id).message)
        try await eventually("bob has the group's image") { try bob.history.message(sent.id)?.attachment != nil }
        let copy = harness.root.appendingPathComponent("bob-route.jpg")
        try await bob.download(messageID: sent.id, to: copy)
        #expect(try Data(contentsOf: copy) == (try Data(contentsOf: photo)))
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }
}
