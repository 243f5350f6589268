import Foundation
@testable import ParleyMail
@testable import ParleyMailFormats
import ParleyPGP
import Testing

/// Web Key Directory locations and Autocrypt header values against what Sequoia's `sq` wrote (Vectors/), not
/// against Parley's own output.
@Suite("Key discovery vectors")
struct KeyDiscoveryVectorTests {
    static func lines(_ name: String) throws -> [String] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Vectors"))
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    @Test func wkdLocationsAreSequoias() throws {
        let lines = try Self.lines("wkd-locations")
        #expect(lines.count >= 12)
        for line in lines {
            if line.hasPrefix("invalid ") {
                let address = String(line.dropFirst("invalid ".count))
                #expect(WKDLocation.candidates(for: address) == nil, "\(address) should have no location")
                continue
            }
            let fields = line.split(separator: " ").map(String.init)
            try #require(fields.count == 4)
            let locations = try #require(WKDLocation.candidates(for: fields[0]))
            let sequoiaHash = try #require(fields[2].split(separator: "/").last?.split(separator: "?").first.map(String.init))
            let expected = [fields[1], fields[2]].map { $0.replacingOccurrences(of: sequoiaHash, with: fields[3]) }
            #expect(locations.map(\.url) == expected, "\(fields[0])")
        }
    }

    @Test func zBase32MatchesTheDraftsExample() {
        // draft-koch-openpgp-webkey-service §3.1: "Joe.Doe" hashes to this.
        #expect(WKDLocation.hash(local: "Joe.Doe") == "iy9q119eutrkn8s1mk4r39qejnbu3n5q")
        #expect(ZBase32.encode([]) == "")
        #expect(ZBase32.encode([0xFF]) == "9h")
        #expect(ZBase32.encode([0x00, 0x00]) == "yyyy")
    }

    @Test func autocryptHeadersAsSequoiaWritesThem() throws {
        let lines = try Self.lines("autocrypt-headers")
        var valid = 0, invalid = 0
        for line in lines {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == 3, "\(line.prefix(60))")
            let header = AutocryptHeader(fields[2])
            if fields[0] == "invalid" {
                #expect(header == nil, "\(fields[1])")
                invalid += 1
                continue
            }
            let expected = fields[1].split(separator: ",").map(String.init)
            let parsed = try #require(header, "\(fields[2].prefix(60))")
            #expect(parsed.address == expected[0])
            #expect(parsed.preferMutual == (expected[1] == "mutual"))
            let certificate = try #require(LearnedKey.usable(parsed.keydata, for: parsed.address, mustName: true, now: UInt32(Date().timeIntervalSince1970)))
            #expect(certificate.primaryKey.fingerprintHex == expected[2])
            // What Parley writes reads back the same, gossip without prefer-encrypt.
            #expect(AutocryptHeader(parsed.value) == parsed)
            #expect(AutocryptHeader(parsed.gossipValue)?.preferMutual == false)
            #expect(AutocryptHeader(parsed.gossipValue)?.keydata == parsed.keydata)
            valid += 1
        }
        #expect(valid == 4 && invalid == 8)
    }

    @Test func oversizedKeydataIsRefusedBeforeDecoding() {
        let huge = String(repeating: "A", count: (AutocryptHeader.largestKey / 3 + 2) * 4)
        #expect(AutocryptHeader("addr=bob@example.org; keydata=\(huge)") == nil)
    }
}
