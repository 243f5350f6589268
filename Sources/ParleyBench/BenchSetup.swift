import Crypto
import Foundation
import NIOCore
import ParleyWire

/// One benchmark account on its own connection, with the conversation it sends to.
struct BenchClient: Sendable {
    let connection: BenchConnection
    let accountID: Int
    /// The other members (one in a direct conversation).
    let recipientIDs: [Int]
    let conversationID: Int
    let tag: String
    /// What this connection was notified of and confirms (with `--confirm-every`).
    let confirmations: BenchConfirmations

    /// Sends one message to the other members and records when it was sent; the
    /// acknowledgement is recorded when it comes. Runs on the connection's event loop.
    func send(sequence: Int, payload: String, recorder: LatencyRecorder) {
        let sentAt = LatencyRecorder.now()
        let envelopes: [JSONValue] = recipientIDs.map { ["account_id": .int($0), "device_id": 1, "ciphertext": .string(payload)] }
        let fields: JSONObject = [
            "conversation_id": .int(conversationID), "client_message_id": .string("\(tag)-\(sequence)"),
            "envelopes": .array(envelopes),
        ]
        let recipients = recipientIDs.count
        recorder.sending()
        connection.send("send_message", fields) { result in
            guard case .success(let response) = result else {
                recorder.failed("connection")
                return
            }
            guard let id = response.int("message_id") else {
                recorder.failed(response.errorCode ?? "no message_id")
                return
            }
            recorder.acknowledged(id, sentAt: sentAt, recipients: recipients)
        }
    }

    /// Sends one message every `interval` from `first` until `end`, on the connection's event loop, on
    /// schedule whether or not earlier sends were answered (an open loop: a slow server cannot slow the
    /// offered load down and so hide its own latency).
    func sendPeriodically(first: NIODeadline, interval: TimeAmount, end: NIODeadline, payload: String, recorder: LatencyRecorder) {
        connection.eventLoop.every(from: first, interval: interval, while: { $0 < end }) { sequence in
            send(sequence: sequence, payload: payload, recorder: recorder)
        }
    }
}

/// Registers, confirms and logs in the benchmark's accounts (connection `i` on node `i % nodes`), and
/// puts them into conversations of `groupSize` members: direct ones for 2, groups otherwise.
enum BenchSetup {
    static func accounts(
        count: Int, groupSize: Int, target: BenchTarget, recorder: LatencyRecorder, confirming: Bool
    ) async throws -> [BenchClient] {
        // One signed and one post-quantum prekey shared by all accounts (each signs them with its own
        // identity key): key generation is not what this benchmark measures.
        let spk = Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation
        let pq = try MLKEM768.PrivateKey().publicKey.rawRepresentation
        let run = UUID().uuidString.prefix(8).lowercased()
        var registered: [(connection: BenchConnection, id: Int, confirmations: BenchConfirmations)] = []
        for index in 0..<count {
            let identity = Curve25519.Signing.PrivateKey()
            let auth = Curve25519.Signing.PrivateKey()
            let email = "bench-\(run)-\(index)@example.org"
            let node = target.node(for: index)
            let confirmations = BenchConfirmations()
            let connection = try await BenchConnection.connect(host: node.host, port: node.port) { note in
                // On one node the envelope comes in the notification (docs/API.md §6.1), so this is the ciphertext in
                // the recipient's hands; another node relays only the hint, so across nodes it is the hint's arrival.
                if note["event"] == "new_message", let id = note.int("message_id") {
                    recorder.notified(id)
                    if confirming { confirmations.notified(id) }
                }
            }
            let registration = try await connection.call("register", [
                "email": .string(email), "display_name": .string("Bench \(index)"),
                "identity_key": .base64(Array(identity.publicKey.rawRepresentation)),
                "auth_key": .base64(Array(auth.publicKey.rawRepresentation)),
                "spk_id": 1, "spk": .base64(Array(spk)),
                "spk_signature": .base64(Array(try identity.signature(for: Data([0x05]) + spk))),
                "pqspk_id": 1, "pqspk": .base64(Array(pq)),
                "pqspk_signature": .base64(Array(try identity.signature(for: Data([0x0A]) + pq))),
                "one_time_prekeys": [],
            ])
            guard registration["ok"] == true, let code = target.code(for: email) else {
                throw BenchConnection.Failure(description: "could not register \(email): \(registration.text)")
            }
            _ = try await connection.call("register_confirm", ["email": .string(email), "code": .string(code)])
            let start = try await connection.call("login_start", ["email": .string(email), "device_id": 1])
            let nonce = start.string("nonce").flatMap { Data(base64Encoded: $0) } ?? Data()
            let signature = try auth.signature(for: LoginChallenge.message(nonce: Array(nonce), email: email, deviceID: 1))
            let login = try await connection.call("login_finish", [
                "email": .string(email), "device_id": 1, "nonce": .base64(Array(nonce)), "signature": .base64(Array(signature)),
                "push_envelopes": true,
            ])
            guard let id = login.int("account_id") else { throw BenchConnection.Failure(description: "login failed: \(login.text)") }
            registered.append((connection, id, confirmations))
        }
        var clients: [BenchClient] = []
        for first in stride(from: 0, to: count, by: groupSize) {
            let members = Array(first..<(first + groupSize))
            let creator = registered[first]
            let emails = members.dropFirst().map { "bench-\(run)-\($0)@example.org" }
            let created = try await creator.connection.call(
                "create_conversation", ["kind": groupSize == 2 ? "direct" : "group", "members": .array(emails.map(JSONValue.string))])
            guard let conversation = created.int("conversation_id") else { throw BenchConnection.Failure(description: "create_conversation failed: \(created.text)") }
            if groupSize > 2 {
                for member in members.dropFirst() {
                    let accepted = try await registered[member].connection.call("accept_invitation", ["conversation_id": .int(conversation)])
                    guard accepted["ok"] == true else { throw BenchConnection.Failure(description: "accept_invitation failed: \(accepted.text)") }
                }
            }
            for member in members {
                clients.append(BenchClient(
                    connection: registered[member].connection, accountID: registered[member].id,
                    recipientIDs: members.filter { $0 != member }.map { registered[$0].id }, conversationID: conversation,
                    tag: "\(run)-\(member)", confirmations: registered[member].confirmations))
            }
        }
        return clients
    }
}
