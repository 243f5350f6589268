import Foundation
import ParleyClient
import ParleyLocation
import Testing

/// This account's own Berry Picker Tracker identity in the vault: one at a time, replaced only by a
/// rotation of the identity the caller saw, forgotten on delete, never in the clear on disk.
@Suite struct BPTOwnKeyTests {
    @Test func oneIdentityAtATimeReplacedOnlyByARotationOfTheOneSeen() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        #expect(try ann.tracker.ownKey() == nil)
        #expect(throws: ClientError.self) { try ann.tracker.makeKey(userID: "aaaaaaaaaaaa", server: "http://t", name: nil, replacing: "other") }

        let first = try ann.tracker.makeKey(userID: "aaaaaaaaaaaa", server: "http://t", name: "Ann", replacing: nil)
        #expect(first.key.byteCount == 16 && first.routeID == nil)
        #expect(try ann.tracker.ownKey() == first)
        #expect(try BPTShareLink(parsing: first.link.link).userID == "aaaaaaaaaaaa")
        // A second create, or a rotation of an identity no longer there, changes nothing.
        #expect(throws: ClientError.self) { try ann.tracker.makeKey(userID: "bbbbbbbbbbbb", server: "http://t", name: nil, replacing: nil) }
        #expect(throws: ClientError.self) { try ann.tracker.makeKey(userID: "bbbbbbbbbbbb", server: "http://t", name: nil, replacing: "zzzzzzzzzzzz") }
        #expect(try ann.tracker.ownKey() == first)
        // Ids the server should never have sent are refused before anything is stored.
        for bad in ["", "a b", "a\r\nb", String(repeating: "x", count: 129)] {
            #expect(throws: ClientError.self) { try ann.tracker.makeKey(userID: bad, server: "http://t", name: nil, replacing: "aaaaaaaaaaaa") }
        }
        #expect(try ann.tracker.ownKey() == first)

        try ann.tracker.setRoute("rrrrrrrrrrrr", userID: "aaaaaaaaaaaa")
        #expect(try ann.tracker.ownKey()?.routeID == "rrrrrrrrrrrr")
        let second = try ann.tracker.makeKey(userID: "bbbbbbbbbbbb", server: "http://t", name: "Ann", replacing: "aaaaaaaaaaaa")
        #expect(second.key.base64 != first.key.base64 && second.routeID == nil)
        // A route for the rotated-away identity is not pinned on the new one.
        #expect(throws: ClientError.self) { try ann.tracker.setRoute("ssssssssssss", userID: "aaaaaaaaaaaa") }
        #expect(try ann.tracker.ownKey() == second)

        #expect(try ann.tracker.forgetKey())
        #expect(try ann.tracker.ownKey() == nil && !(try ann.tracker.forgetKey()))

        // Sealed in the vault: the key is nowhere in the account's files.
        let kept = try ann.tracker.makeKey(userID: "cccccccccccc", server: "http://t", name: nil, replacing: nil)
        let raw = Data(try #require(Data(base64Encoded: kept.key.base64)))
        for file in try FileManager.default.subpathsOfDirectory(atPath: ann.directory.path) {
            guard let data = FileManager.default.contents(atPath: ann.directory.appendingPathComponent(file).path) else { continue }
            #expect(data.range(of: raw) == nil && data.range(of: Data(kept.key.base64.utf8)) == nil, "\(file)")
        }
        await ann.disconnect()
        try await harness.stop()
    }
}
