import Foundation
import Testing
@testable import ParleyPGP

/// Several armored certificates one after another (`cat a.asc b.asc`), as SOP's CERTS inputs may be.
@Suite struct ArmorBlocksTests {
    @Test func concatenatedArmoredCertificatesAreAllRead() throws {
        let ed = try Fixtures.bytes("ed.pub.asc"), rsa = try Fixtures.bytes("rsa.pub.asc")
        let both = try Certificate.readAll(ed + Array("\nsome text between\n".utf8) + rsa)
        #expect(both.map(\.fingerprint) == [try Fixtures.certificate("ed.pub.asc").fingerprint, try Fixtures.certificate("rsa.pub.asc").fingerprint])
        #expect(try Armor.blocks(ed + rsa).map(\.kind) == [.publicKey, .publicKey])
    }

    @Test func aBrokenLaterBlockIsAnError() throws {
        let ed = try Fixtures.bytes("ed.pub.asc"), rsa = try Fixtures.bytes("rsa.pub.asc")
        #expect(throws: PGPError.self) { try Certificate.readAll(ed + Array(rsa.prefix(rsa.count / 2))) }
        var flipped = rsa
        flipped[rsa.count / 2] = flipped[rsa.count / 2] == 0x41 ? 0x42 : 0x41
        #expect(throws: PGPError.self) { try Certificate.readAll(ed + flipped) }
        #expect(throws: PGPError.self) { try Armor.blocks(Array("no armor here".utf8)) }
    }
}
