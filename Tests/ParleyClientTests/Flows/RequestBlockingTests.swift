import Foundation
import ParleyClient
import Testing

@Suite("Flows: naming people and blocking a request's starter")
struct RequestBlockingTests {
    @Test("a positive number is an account id; anything else, however odd, is taken as an e-mail")
    func typedPeople() {
        #expect(ParleyClient.Person(typed: "42") == .account(42))
        #expect(ParleyClient.Person(typed: "9223372036854775807") == .account(.max))
        #expect(ParleyClient.Person(typed: "+7") == .account(7))
        for text in ["0", "-5", " 12", "12abc", "99999999999999999999", "", "ann@example.org", "\u{1B}[2J", "1\u{0}"] {
            #expect(ParleyClient.Person(typed: text) == .email(text), "\(text) was taken for an account id")
        }
    }

    @Test("blocking a request's starter blocks them; an unknown request blocks no one")
    func blockStarter() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let sent = try #require(try await ann.send("hello, stranger", to: chat.id).message)
        try await eventually("bob receives") { try bob.history.message(sent.id) != nil }
        #expect(try await bob.requests.blockStarter(of: 9_999_999) == nil)
        #expect(try await bob.requests.blocked().isEmpty)
        let request = try #require(try await bob.requests.blockStarter(of: chat.id))
        #expect(request.email == "ann@example.org")
        #expect(try await bob.requests.blocked().map(\.accountID) == [request.accountID])
        await ann.disconnect()
        await bob.disconnect()
        try await harness.stop()
    }
}
