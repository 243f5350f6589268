import Foundation
@testable import ParleyMail
@testable import ParleyMailFormats
import ParleyPGP
import Testing

/// Autocrypt Level 1's rules for taking a header (§2.3) and gossip (§2.4), on messages written by hand around the
/// key Sequoia encoded (Vectors/autocrypt-headers.txt).
@Suite("Autocrypt rules")
struct AutocryptRulesTests {
    let bobHeader: String
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        let line = try #require(try KeyDiscoveryVectorTests.lines("autocrypt-headers").first { $0.hasPrefix("valid") })
        bobHeader = String(line.split(separator: "\t", maxSplits: 2)[2])
    }

    func headers(_ fields: String) throws -> MailHeaders {
        try MailHeaders.of(eml: Array((fields + "\r\n\r\nbody\r\n").utf8))
    }

    @Test func theSendersOneValidHeaderIsTaken() throws {
        let receipt = try #require(AutocryptReceipt.sender(try headers("""
            From: Bob <BOB@example.org>\r
            Date: Thu, 26 Nov 2026 09:14:00 +0000\r
            Autocrypt: \(bobHeader)
            """), account: "ann@example.org", now: now))
        #expect(receipt.address == "bob@example.org")
        #expect(receipt.header?.preferMutual == true)
        #expect(receipt.date == Int64(MailDate.parse("Thu, 26 Nov 2026 09:14:00 +0000")!.timeIntervalSince1970))
    }

    @Test func headersLevelOneSaysToIgnore() throws {
        let date = "Date: Thu, 26 Nov 2026 09:14:00 +0000\r\n"
        // Two valid headers for the sender: none is taken, but the message still counts as seen.
        let twice = try #require(AutocryptReceipt.sender(try headers("From: bob@example.org\r\n\(date)Autocrypt: \(bobHeader)\r\nAutocrypt: \(bobHeader)"),
                                                        account: "ann@example.org", now: now))
        #expect(twice.header == nil)
        // A header for another address than From's.
        let other = try #require(AutocryptReceipt.sender(try headers("From: eve@example.org\r\n\(date)Autocrypt: \(bobHeader)"),
                                                        account: "ann@example.org", now: now))
        #expect(other.header == nil)
        // Two From addresses, or the account's own: the message is not processed at all.
        #expect(AutocryptReceipt.sender(try headers("From: bob@example.org, carol@example.org\r\nAutocrypt: \(bobHeader)"), account: "ann@example.org", now: now) == nil)
        #expect(AutocryptReceipt.sender(try headers("From: Bob <bob@example.org>\r\nAutocrypt: \(bobHeader)"), account: "bob@example.org", now: now) == nil)
        #expect(AutocryptReceipt.ignores(folder: "Junk") && AutocryptReceipt.ignores(folder: "INBOX.Spam") && !AutocryptReceipt.ignores(folder: "INBOX"))
    }

    @Test func theEffectiveDateIsNeverInTheFuture() throws {
        let future = try #require(AutocryptReceipt.sender(try headers("From: bob@example.org\r\nDate: Fri, 1 Jan 2100 00:00:00 +0000\r\nAutocrypt: \(bobHeader)"),
                                                         account: "ann@example.org", now: now))
        #expect(future.date == Int64(now.timeIntervalSince1970))
        let unreadable = try #require(AutocryptReceipt.sender(try headers("From: bob@example.org\r\nDate: yesterday-ish"), account: "ann@example.org", now: now))
        #expect(unreadable.date == Int64(now.timeIntervalSince1970))
    }

    @Test func peerStateFollowsLevelOnesUpdateRules() throws {
        let header = try #require(AutocryptHeader(bobHeader))
        var state = PeerState(address: "bob@example.org")
        let changed1 = state.observe(header, at: 1000)
        #expect(changed1)
        #expect(state.autocryptKey == Data(header.keydata) && state.lastSeen == 1000 && state.preferEncrypt == true)
        // An older message changes nothing, with or without a header.
        let changed2 = state.observe(nil, at: 999)
        #expect(!changed2)
        var other = header
        other.keydata = [1, 2, 3]
        let changed3 = state.observe(other, at: 500)
        #expect(!changed3)
        #expect(state.autocryptKey == Data(header.keydata))
        // A newer message without a header moves last_seen only; the key stays.
        let changed4 = state.observe(nil, at: 2000)
        #expect(changed4)
        #expect(state.lastSeen == 2000 && state.autocryptTimestamp == 1000 && state.autocryptKey == Data(header.keydata))
        // A newer header replaces the key.
        let changed5 = state.observe(other, at: 3000)
        #expect(changed5)
        #expect(state.autocryptKey == Data([1, 2, 3]) && state.autocryptTimestamp == 3000)
        // Gossip only moves forward, and the sender's own header wins over it.
        let changed6 = state.observeGossip(header, at: 100)
        #expect(changed6)
        let changed7 = state.observeGossip(other, at: 100)
        #expect(!changed7)
        #expect(state.key(now: 4000)?.origin == .autocrypt)
        var gossipOnly = PeerState(address: "carol@example.org")
        _ = gossipOnly.observeGossip(header, at: 100)
        #expect(gossipOnly.key(now: 4000)?.origin == .gossip)
        // A directory's answer is used for seven days.
        var wkd = PeerState(address: "dave@example.org")
        wkd.wkdKey = Data([9])
        wkd.wkdFetched = 0
        #expect(wkd.key(now: PeerState.wkdLifetime - 1)?.origin == .wkd)
        #expect(wkd.key(now: PeerState.wkdLifetime) == nil)
    }

    @Test func oneUpdatePerAddressLeavesTheSameStateAsEveryReceiptInTurn() throws {
        let header = try #require(AutocryptHeader(bobHeader))
        var other = header
        other.keydata = [7]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let receipts = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                AutocryptReceipt(address: Bool.random(using: &generator) ? "bob@example.org" : "carol@example.org",
                                 date: Int64.random(in: 0...5, using: &generator),
                                 header: [nil, header, other].randomElement(using: &generator)!)
            }
            var start = PeerState(address: "x@example.org")
            if Bool.random(using: &generator) { _ = start.observe(header, at: 2) }
            for address in ["bob@example.org", "carol@example.org"] {
                var everyOne = start, reduced = start
                for receipt in receipts where receipt.address == address { _ = everyOne.observe(receipt.header, at: receipt.date) }
                for receipt in MailStore.newest(receipts) where receipt.address == address { _ = reduced.observe(receipt.header, at: receipt.date) }
                #expect(everyOne == reduced, "\(receipts.map { ($0.address, $0.date, $0.header?.keydata.count ?? 0) })")
            }
        }
    }

    @Test func mailDatesAsMailCarriesThem() {
        let expected = 1_795_684_440.0  // 2026-11-26 09:14:00 UTC
        #expect(MailDate.parse("Thu, 26 Nov 2026 09:14:00 +0000")?.timeIntervalSince1970 == expected)
        #expect(MailDate.parse("26 Nov 2026 10:14:00 +0100")?.timeIntervalSince1970 == expected)
        #expect(MailDate.parse("Thu, 26 Nov 2026 04:14 -0500 (EST)")?.timeIntervalSince1970 == expected)
        #expect(MailDate.parse("Thu, 26 Nov 26 09:14:00 GMT")?.timeIntervalSince1970 == expected)
        for bad in ["", "Thu", "32 Nov 2026 09:14:00 +0000", "26 Foo 2026 09:14:00 +0000", "26 Nov 2026 25:00:00 +0000",
                    "26 Nov 2026 09:14:00 +00", "26 Nov 2026 09:14:00 +0099", String(repeating: "9", count: 10_000)] {
            #expect(MailDate.parse(bad) == nil, "\(bad.prefix(40))")
        }
    }

    @Test func addressListsAsMailCarriesThem() {
        #expect(MailAddresses.parse("\"Doe, Jane\" <Jane@Example.org>, bob@example.org, not an address, <carol@example.net>")
                == ["jane@example.org", "bob@example.org", "carol@example.net"])
        #expect(MailAddresses.parse(nil).isEmpty)
        #expect(MailAddresses.parse("<a@b>, x@y.").isEmpty)
    }
}
