import ParleyLocation
import Testing

@Suite struct ShareLinkTests {
    @Test func bptLinksAreProducedAsTheAppDoesAndParsedBothWays() throws {
        let vectors = try Vectors.load("links", as: LinkVectors.self)
        for vector in vectors.bpt {
            let key = try LegacyKey(base64: vector.key)
            #expect(BPTShareLink(key: key, userID: vector.user_id, username: vector.username).link == vector.app_link)
            for text in [vector.app_link, vector.once_link] {
                let link = try BPTShareLink(parsing: text)
                #expect(link.key.base64 == vector.key)
                #expect(link.userID == vector.user_id)
                #expect(link.username == vector.username)
            }
        }
    }

    @Test func appLinksEncodeKeyCharactersTwice() throws {
        let key = try LegacyKey(base64: "+/+/AAAAAAAAAAAAAAAAAA==")
        let link = BPTShareLink(key: key, userID: "abcdefghijkl").link
        #expect(link == "bpt://?cryptoKey=%252B%252F%252B%252FAAAAAAAAAAAAAAAAAA%253D%253D&userId=abcdefghijkl")
    }

    @Test func badBPTLinksAreRefused() throws {
        let vectors = try Vectors.load("links", as: LinkVectors.self)
        #expect(vectors.bpt_invalid.count >= 9)
        for vector in vectors.bpt_invalid {
            #expect(throws: LocationError.self, "\(vector.comment)") { try BPTShareLink(parsing: vector.link) }
        }
    }

    @Test func parleyLinksRoundTrip() throws {
        let vectors = try Vectors.load("links", as: LinkVectors.self)
        for vector in vectors.parley {
            let key = try LocationKey(bytes: [UInt8](hex: vector.key))
            #expect(ParleyLocationLink(owner: vector.owner, key: key, server: vector.server, name: vector.name).link == vector.link)
            let parsed = try ParleyLocationLink(parsing: vector.link)
            #expect(parsed.owner == vector.owner && parsed.key.bytes == key.bytes)
            #expect(parsed.server == vector.server && parsed.name == vector.name)
        }
    }

    @Test func badParleyLinksAreRefused() throws {
        let vectors = try Vectors.load("links", as: LinkVectors.self)
        for vector in vectors.parley_invalid {
            #expect(throws: LocationError.self, "\(vector.comment)") { try ParleyLocationLink(parsing: vector.link) }
        }
    }

    @Test func linkErrorsDoNotEchoTheKey() throws {
        let text = "bpt://?cryptoKey=" + String(repeating: "QUFB", count: 5) + "&userId=x"
        do {
            _ = try BPTShareLink(parsing: text)
            Issue.record("a 15-byte key was accepted")
        } catch {
            #expect(!"\(error)".contains("QUFB"))
        }
    }
}
