import Crypto
import Foundation
import ParleyWire

/// Key material a real client would generate, and the requests it would send.
struct TestAccount {
    let email: String
    let identity = Curve25519.Signing.PrivateKey()
    let auth = Curve25519.Signing.PrivateKey()
    let signedPreKey = Curve25519.KeyAgreement.PrivateKey()
    let pqPreKey = try! MLKEM768.PrivateKey()

    init(_ email: String) { self.email = email }

    /// The fields of a valid `rotate_keys` request that makes this account's keys current (`register`'s without the
    /// e-mail and the name).
    var rotateFields: [String: Any] {
        var fields = registerFields
        fields.removeValue(forKey: "email")
        fields.removeValue(forKey: "display_name")
        return fields
    }

    /// The fields of a valid `register` request.
    var registerFields: [String: Any] {
        let spk = signedPreKey.publicKey.rawRepresentation
        let pq = pqPreKey.publicKey.rawRepresentation
        return [
            "email": email,
            "display_name": email.split(separator: "@")[0].capitalized,
            "identity_key": identity.publicKey.rawRepresentation.base64EncodedString(),
            "auth_key": auth.publicKey.rawRepresentation.base64EncodedString(),
            "spk_id": 1,
            "spk": spk.base64EncodedString(),
            "spk_signature": try! identity.signature(for: Data([0x05]) + spk).base64EncodedString(),
            "pqspk_id": 1,
            "pqspk": pq.base64EncodedString(),
            "pqspk_signature": try! identity.signature(for: Data([0x0A]) + pq).base64EncodedString(),
            "one_time_prekeys": (1...5).map { id in
                ["id": id, "key": Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation.base64EncodedString()]
            },
        ]
    }

    /// Signs a login nonce the way the client does.
    func loginSignature(nonce: String, deviceID: UInt32 = 1) -> String {
        let message = LoginChallenge.message(nonce: Array(Data(base64Encoded: nonce)!), email: email, deviceID: deviceID)
        return try! auth.signature(for: message).base64EncodedString()
    }
}

extension LineSocket {
    /// Registers and confirms `account`, reading the code with `code` (from a dev-codes.log).
    func register(_ account: TestAccount, code: (String) throws -> String?) async throws {
        let registered = try await call("register", account.registerFields)
        guard registered.ok else { throw Failure(description: "register failed: \(registered)") }
        guard let value = try code(account.email) else { throw Failure(description: "no verification code") }
        let confirmed = try await call("register_confirm", ["email": account.email, "code": value])
        guard confirmed.ok else { throw Failure(description: "confirm failed: \(confirmed)") }
    }

    /// Logs `account` in with the challenge–response a client performs; returns login_finish's response.
    /// `push` is sent as `push_envelopes` when given (docs/API.md §6.1).
    func login(_ account: TestAccount, deviceID: UInt32 = 1, push: Any? = nil) async throws -> [String: Any] {
        let start = try await call("login_start", ["email": account.email, "device_id": deviceID])
        guard let nonce = start["nonce"] as? String else { return start }
        var fields: [String: Any] = [
            "email": account.email, "device_id": deviceID, "nonce": nonce,
            "signature": account.loginSignature(nonce: nonce, deviceID: deviceID),
        ]
        if let push { fields["push_envelopes"] = push }
        return try await call("login_finish", fields)
    }
}

/// The newest code for `email` in a development code log.
func latestCode(in log: URL, for email: String) -> String? {
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").last { $0.hasPrefix("\(email) ") }.map { String($0.split(separator: " ")[1]) }
}

extension TestServer {
    /// Registers and confirms `account`, failing the test on any error.
    func createAccount(_ account: TestAccount, on socket: LineSocket) async throws {
        try await socket.register(account) { try latestCode(for: $0) }
    }

    /// Logs `account` in on `socket`.
    func login(_ account: TestAccount, on socket: LineSocket, deviceID: UInt32 = 1) async throws -> [String: Any] {
        try await socket.login(account, deviceID: deviceID)
    }
}
