import ParleyServer
import Testing

@Suite("ListenAddress: HOST:PORT as the operator writes it")
struct ListenAddressTests {
    @Test("host and port, IPv6 in brackets, port 0 for any free one")
    func valid() throws {
        #expect(try ListenAddress.parse("127.0.0.1:7433") == ("127.0.0.1", 7433))
        #expect(try ListenAddress.parse("[::1]:7433") == ("::1", 7433))
        #expect(try ListenAddress.parse("example.org:0") == ("example.org", 0))
        #expect(try ListenAddress.parse("example.org:65535") == ("example.org", 65_535))
        // The last colon separates the port: an unbracketed IPv6 address keeps its own colons.
        #expect(try ListenAddress.parse("::1:25") == ("::1", 25))
    }

    @Test("garbage, truncated and oversize addresses are refused with what to write")
    func invalid() {
        for text in ["", "example.org", "[::1]"] {
            #expect(throws: ListenAddress.Failure.self) { try ListenAddress.parse(text) }
        }
        #expect(throws: ListenAddress.Failure.noPort) { try ListenAddress.parse("example.org") }
        for text in [":7433", "example.org:", "example.org:65536", "example.org:-1", "example.org:99999999999999999999999",
                     "example.org:http", "[]:7433", "[::1]x", "example.org:7433\u{0}", "example.org: 7433"] {
            #expect(throws: ListenAddress.Failure.invalid, "\(text) was taken") { try ListenAddress.parse(text) }
        }
        #expect(ListenAddress.Failure.noPort.description == "--listen must be HOST:PORT, for example 127.0.0.1:7433")
        #expect(ListenAddress.Failure.invalid.description
            == "--listen must be HOST:PORT with a port from 0 to 65535, for example 127.0.0.1:7433")
    }
}
