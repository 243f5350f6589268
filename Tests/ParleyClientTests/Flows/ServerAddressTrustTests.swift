import Foundation
import ParleyClient
import Testing

@Suite("Flows: server addresses with their trust settings")
struct ServerAddressTrustTests {
    @Test("a pin or a CA file implies TLS; without either it is off unless asked for")
    func tlsImplied() throws {
        #expect(try ServerAddress(parsing: "example.org:7433", tls: false, pinKey: nil, ca: nil).tls == false)
        #expect(try ServerAddress(parsing: "example.org:7433", tls: true, pinKey: nil, ca: nil).tls)
        let pinned = try ServerAddress(parsing: "example.org:7433", tls: false, pinKey: "AAAA", ca: nil)
        #expect(pinned.tls && pinned.pinnedKeySHA256 == "AAAA" && pinned.trustedCertificatesFile == nil)
        let withCA = try ServerAddress(parsing: "example.org:7433", tls: false, pinKey: nil, ca: "/etc/ca.pem")
        #expect(withCA.tls && withCA.trustedCertificatesFile == "/etc/ca.pem" && withCA.pinnedKeySHA256 == nil)
    }

    @Test("new addresses keep the current TLS, pin and CA file unless they are given again")
    func keepsTheCurrentTrust() throws {
        let current = ServerAddress(host: "old.example.org", port: 1, tls: true, pinnedKeySHA256: "OLD", trustedCertificatesFile: "/old.pem")
        let moved = try ServerAddress(parsing: "a.example.org:1,b.example.org:2", tls: false, pinKey: nil, ca: nil, keeping: current)
        #expect(moved.endpoints.map(\.description) == ["a.example.org:1", "b.example.org:2"])
        #expect(moved.tls && moved.pinnedKeySHA256 == "OLD" && moved.trustedCertificatesFile == "/old.pem")
        let repinned = try ServerAddress(parsing: "a.example.org:1", tls: false, pinKey: "NEW", ca: "/new.pem", keeping: current)
        #expect(repinned.pinnedKeySHA256 == "NEW" && repinned.trustedCertificatesFile == "/new.pem")
        let plain = ServerAddress(host: "old.example.org", port: 1)
        #expect(try ServerAddress(parsing: "a.example.org:1", tls: false, pinKey: nil, ca: nil, keeping: plain).tls == false)
    }

    @Test("garbage, truncated, oversize and control-character addresses are refused in words")
    func hostile() {
        let hostile = ["", ":", "example.org", "example.org:", "example.org:0", "example.org:65536", "example.org:99999999999999999999",
                       "exa mple.org:1", "a/b:1", "\u{1B}[2J:1", String(repeating: "a:1,", count: 17) + "a:1", "a:1,,b:2"]
        for text in hostile {
            #expect(throws: ClientError.self, "\(text.prefix(40)) was taken") {
                _ = try ServerAddress(parsing: text, tls: false, pinKey: "AAAA", ca: nil)
            }
        }
        // The plain parser refuses a control character too, without echoing it (the terminal would run it).
        for text in ["\u{1B}[2J:1", "example.org:1,\u{7}b:2", "a\u{0}b:1"] {
            do {
                _ = try ServerAddress(parsing: text)
                Issue.record("a host with a control character was taken")
            } catch {
                #expect(error.description == "a server address cannot hold control characters")
            }
        }
        do {
            _ = try ServerAddress(parsing: "example.org", tls: false, pinKey: nil, ca: nil)
        } catch {
            #expect(error.description.contains("'example.org' is not HOST:PORT (for example 127.0.0.1:7300)"))
        }
    }
}
