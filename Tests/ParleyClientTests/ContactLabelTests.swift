import Foundation
@testable import ParleyClient
import ParleyTestSupport
import Testing

/// How an entry in a conversation (someone joined, left, deleted their account) names a person: as their messages
/// are signed, with the address this device knows them by — the same whichever of the two it learnt first.
@Suite("Contact labels in conversation entries")
struct ContactLabelTests {
    @Test func nameAndAddressWhenBothAreKnown() throws {
        let account = try ScratchAccount("labels")
        let contacts = ContactBook(dependencies: account.context(server: ListingServer()))
        #expect(try contacts.label(7) == "account 7", "nothing known")
        try contacts.remember(Contact(accountID: 7, email: "bob@example.org", displayName: nil))
        #expect(try contacts.label(7) == "bob@example.org")
        try contacts.remember(Contact(accountID: 7, email: nil, displayName: "Bob"))
        #expect(try contacts.label(7) == "Bob (bob@example.org)")
        try contacts.remember(Contact(accountID: 8, email: nil, displayName: "Carl"))
        #expect(try contacts.label(8) == "Carl", "an address this device was never shown is not made up")
        try contacts.remember(Contact(accountID: 9, email: "dan@example.org", displayName: ""))
        #expect(try contacts.label(9) == "dan@example.org", "an empty name is no name")
        // Commands still take the address: the key-change warning's 'parley verify …' uses `name`.
        #expect(try contacts.name(7) == "bob@example.org")
    }
}
