import Foundation
import ParleyLocationFeeds
import ParleyTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A gpsd that greets and then sends nothing (no receiver attached, or a stalled daemon), on a real socket: the feed
/// ends with an error naming gpsd and what to check once its silence limit passes, instead of waiting for ever.
@Suite struct GPSDSilenceTests {
    @Test func aSilentGPSDEndsTheFeedWithAnError() async throws {
        let (listener, port) = try LocalPorts.listen(backlog: 1)
        defer { close(listener) }
        // Accepts, says what gpsd says first, then nothing (the connection stays open until the test ends).
        let peer = Peer(listener: listener)
        Thread.detachNewThread { peer.serve() }
        defer { peer.finish() }

        let started = ContinuousClock.now
        let connection = try await GPSDConnection.open(GPSDConnection.Endpoint(parsing: "127.0.0.1:\(port)"), silence: .seconds(1))
        defer { connection.disconnect() }
        do {
            _ = try await connection.nextFix()
            Issue.record("a fix from a gpsd that sent none")
        } catch let error as LocationFeedError {
            #expect(error.description == "gpsd at 127.0.0.1:\(port) has sent nothing for 1 s: is a GPS receiver attached and sending? ('gpspipe -w 127.0.0.1:\(port)' shows what gpsd reports)")
        }
        // It ends rather than waiting for ever (the peer keeps the connection open until the test ends). The bound is
        // loose on purpose: on a machine loaded by the whole test run the reads' queue was seen to start 15 s late.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    /// The fake gpsd's side: one connection, one greeting, then silence.
    final class Peer: @unchecked Sendable {
        let listener: Int32
        private let done = DispatchSemaphore(value: 0)
        init(listener: Int32) { self.listener = listener }

        func serve() {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let greeting = Array(#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#.utf8) + [0x0A]
            _ = greeting.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            done.wait()
            close(client)
        }

        func finish() { done.signal() }
    }
}
