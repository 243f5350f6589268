import Foundation
import ParleyClient
import ParleyCrypto
import ParleyTestSupport
import ParleyWire
import Testing

/// The client states its protocol version when it connects (docs/API.md §1), and says in words when the server
/// speaks another.
@Suite("Client: the protocol version")
struct ProtocolVersionTests {
    /// A one-connection server that answers the first request (the client's `hello`) with `answer`'s fields.
    static func fakeServer(answering answer: String) throws -> Int {
        let (listener, port) = try LocalPorts.listen(backlog: 1)
        Thread.detachNewThread {
            defer { close(listener) }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            defer { close(client) }
            var line: [UInt8] = [], byte: UInt8 = 0
            while read(client, &byte, 1) == 1, byte != 0x0A { line.append(byte) }
            let request = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any]
            let id = request?["request_id"] as? String ?? ""
            let reply = Array("{\"type\":\"response\",\"request_id\":\"\(id)\",\(answer)}\n".utf8)
            _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            Thread.sleep(forTimeInterval: 2)
        }
        return port
    }

    @Test("a server that speaks a newer protocol is named, with what to do; an older one refusing ours is said in its words")
    func mismatchIsSaidInWords() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        await ann.disconnect()
        for (answer, expected) in [
            (#""ok":true,"protocol":2"#, "the server speaks Parley protocol 2 and this client protocol 1; update this client"),
            (#""ok":false,"error":{"code":"unsupported_protocol","message":"this server speaks Parley protocol 0 and the client protocol 1; the client is newer: update the server"}"#,
             "the server refused: this server speaks Parley protocol 0 and the client protocol 1; the client is newer: update the server"),
        ] {
            let port = try Self.fakeServer(answering: answer)
            let client = try ParleyClient.create(
                home: harness.home("mismatch-\(port)"), email: "x\(port)@example.org", displayName: "X",
                server: ServerAddress(host: "127.0.0.1", port: port), pin: nil)
            do {
                try await client.registration.register(password: "correct horse x", envelopeIterations: KeyEnvelope.minimumSealIterations)
                Issue.record("registration went on against a server of another protocol")
            } catch {
                #expect("\(error)" == expected)
            }
        }
        // Against the real server the hello passes: ann connects again as ever.
        try await ann.connect()
        #expect(await ann.isConnected)
        await ann.disconnect()
        try await harness.stop()
    }
}
