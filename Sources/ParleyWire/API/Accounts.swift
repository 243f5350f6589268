/// Accounts and login: registration, challenge–response login, key recovery, deletion (docs/API.md §3).
extension API {
    static let accountMethods: [any APIMethod.Type] = [
        Register.self, RegisterConfirm.self, LoginStart.self, LoginFinish.self, RecoveryStart.self, RecoveryFinish.self,
        DeleteAccount.self,
    ]

    /// An `email` field is at most this long (the server then normalises and checks its characters).
    public static let maximumEmailBytes = 254
    /// A password-sealed key envelope (ECP1, FORMATS.md §5) is at most this long.
    public static let maximumKeyEnvelopeBytes = 64 * 1024

    /// An account and one of its devices: a confirmed registration, a login, `whoami`.
    public struct AccountDevice: WireBody {
        public var accountID: Int64
        public var deviceID: UInt32
        public init(accountID: Int64, deviceID: UInt32) {
            self.accountID = accountID
            self.deviceID = deviceID
        }
        public init(from fields: WireFields) throws(WireError) {
            accountID = try fields.integer("account_id")
            deviceID = try fields.device("device_id")
        }
        public var fields: [String: JSONValue] { ["account_id": .int(accountID), "device_id": .int(deviceID)] }
        public static let fieldNames = ["account_id", "device_id"]
    }

    /// An e-mailed code is on its way (`register`, `recovery_start`).
    public struct CodeSent: WireBody {
        /// `verification_sent` (register) or `code_sent` (recovery).
        public var status: String
        /// Seconds the code stays good.
        public var expiresIn: Int64
        public init(status: String, expiresIn: Int64) {
            self.status = status
            self.expiresIn = expiresIn
        }
        public init(from fields: WireFields) throws(WireError) {
            status = try fields.string("status", maxBytes: 64)
            expiresIn = try fields.integer("expires_in")
        }
        public var fields: [String: JSONValue] { ["status": .string(status), "expires_in": .int(expiresIn)] }
        public static let fieldNames = ["status", "expires_in"]
    }

    /// An e-mail address and the code sent to it (`register_confirm`, `recovery_finish`).
    public struct EmailCode: WireBody {
        public var email: String
        public var code: String
        public init(email: String, code: String) {
            self.email = email
            self.code = code
        }
        public init(from fields: WireFields) throws(WireError) {
            email = try fields.string("email", maxBytes: maximumEmailBytes)
            code = try fields.string("code", maxBytes: 16)
        }
        public var fields: [String: JSONValue] { ["email": .string(email), "code": .string(code)] }
        public static let fieldNames = ["email", "code"]
    }

    /// A solved proof-of-work challenge (`pow_challenge`, `pow_nonce`), sent when the server asked for one.
    public struct ProofOfWorkAnswer: Sendable, Equatable {
        public var challenge: [UInt8]
        public var nonce: UInt64
        public init(challenge: [UInt8], nonce: UInt64) {
            self.challenge = challenge
            self.nonce = nonce
        }
    }

    /// Creates a pending account and e-mails a code (`register`).
    public enum Register: APIMethod {
        public static let name = "register"
        public static let requiresLogin = false

        public struct Request: WireBody {
            public var email: String
            public var displayName: String
            public var identityKey: [UInt8]
            public var authKey: [UInt8]
            /// The password-sealed keys, for recovery (ECP1).
            public var keyEnvelope: [UInt8]?
            /// The first device's name ("device 1" when absent).
            public var deviceName: String?
            public var preKeys: PreKeys
            /// An invite code, on a server that takes accounts by invitation.
            public var invite: String?
            public var proofOfWork: ProofOfWorkAnswer?

            public init(
                email: String, displayName: String, identityKey: [UInt8], authKey: [UInt8], keyEnvelope: [UInt8]? = nil,
                deviceName: String? = nil, preKeys: PreKeys, invite: String? = nil, proofOfWork: ProofOfWorkAnswer? = nil
            ) {
                self.email = email
                self.displayName = displayName
                self.identityKey = identityKey
                self.authKey = authKey
                self.keyEnvelope = keyEnvelope
                self.deviceName = deviceName
                self.preKeys = preKeys
                self.invite = invite
                self.proofOfWork = proofOfWork
            }

            public init(from fields: WireFields) throws(WireError) {
                email = try fields.string("email", maxBytes: maximumEmailBytes)
                displayName = try fields.string("display_name", maxBytes: 128)
                identityKey = try fields.bytes("identity_key", count: 32)
                authKey = try fields.bytes("auth_key", count: 32)
                keyEnvelope = try fields.optionalBytes("key_envelope", maxBytes: maximumKeyEnvelopeBytes)
                deviceName = try fields.optionalString("device_name", maxBytes: 64)
                preKeys = try PreKeys(from: fields)
                invite = fields.sent("invite") ? try fields.string("invite", maxBytes: 64) : nil
                proofOfWork = nil
                if fields.sent("pow_challenge") {
                    proofOfWork = ProofOfWorkAnswer(
                        challenge: try fields.bytes("pow_challenge", count: 32), nonce: UInt64(try fields.integer("pow_nonce")))
                }
            }

            public var fields: [String: JSONValue] {
                var out = preKeys.fields
                out["email"] = .string(email)
                out["display_name"] = .string(displayName)
                out["identity_key"] = .base64(identityKey)
                out["auth_key"] = .base64(authKey)
                out.set("key_envelope", keyEnvelope.map(JSONValue.base64))
                out.set("device_name", deviceName.map(JSONValue.string))
                out.set("invite", invite.map(JSONValue.string))
                if let proofOfWork {
                    out["pow_challenge"] = .base64(proofOfWork.challenge)
                    out["pow_nonce"] = .int(proofOfWork.nonce)
                }
                return out
            }
            public static let fieldNames = [
                "email", "display_name", "identity_key", "auth_key", "key_envelope?", "device_name?", "invite?",
                "pow_challenge?", "pow_nonce?",
            ] + PreKeys.fieldNames
        }
        public typealias Response = CodeSent
    }

    /// Activates a pending account with the e-mailed code; the first device is 1 (`register_confirm`).
    public enum RegisterConfirm: APIMethod {
        public static let name = "register_confirm"
        public static let requiresLogin = false
        public typealias Request = EmailCode
        public typealias Response = AccountDevice
    }

    /// Asks for a login nonce; device 0 asks for one to sign `add_device` with (`login_start`).
    public enum LoginStart: APIMethod {
        public static let name = "login_start"
        public static let requiresLogin = false

        public struct Request: WireBody {
            public var email: String
            /// The device logging in; 0 for a device about to be added.
            public var deviceID: UInt32
            public init(email: String, deviceID: UInt32) {
                self.email = email
                self.deviceID = deviceID
            }
            public init(from fields: WireFields) throws(WireError) {
                email = try fields.string("email", maxBytes: maximumEmailBytes)
                deviceID = try fields.device("device_id")
            }
            public var fields: [String: JSONValue] { ["email": .string(email), "device_id": .int(deviceID)] }
            public static let fieldNames = ["email", "device_id"]
        }

        public struct Response: WireBody {
            /// The single-use nonce to sign.
            public var nonce: [UInt8]
            /// Seconds the nonce stays good.
            public var expiresIn: Int64
            public init(nonce: [UInt8], expiresIn: Int64) {
                self.nonce = nonce
                self.expiresIn = expiresIn
            }
            public init(from fields: WireFields) throws(WireError) {
                nonce = try fields.bytes("nonce", count: LoginChallenge.nonceLength)
                expiresIn = try fields.integer("expires_in")
            }
            public var fields: [String: JSONValue] { ["nonce": .base64(nonce), "expires_in": .int(expiresIn)] }
            public static let fieldNames = ["nonce", "expires_in"]
        }
    }

    /// Logs the connection in with the auth key's signature over the nonce (`login_finish`).
    public enum LoginFinish: APIMethod {
        public static let name = "login_finish"
        public static let requiresLogin = false

        public struct Request: WireBody {
            public var email: String
            public var deviceID: UInt32
            public var nonce: [UInt8]
            /// Ed25519 by the auth key over `LoginChallenge.message`.
            public var signature: [UInt8]
            /// Whether new messages' envelopes should ride in their notifications (docs/API.md §6.1); absent is false.
            public var pushEnvelopes: Bool?

            public init(email: String, deviceID: UInt32, nonce: [UInt8], signature: [UInt8], pushEnvelopes: Bool? = nil) {
                self.email = email
                self.deviceID = deviceID
                self.nonce = nonce
                self.signature = signature
                self.pushEnvelopes = pushEnvelopes
            }
            public init(from fields: WireFields) throws(WireError) {
                email = try fields.string("email", maxBytes: maximumEmailBytes)
                deviceID = try fields.device("device_id", in: 1...Int64(UInt32.max))
                nonce = try fields.bytes("nonce", count: LoginChallenge.nonceLength)
                signature = try fields.bytes("signature", count: 64)
                pushEnvelopes = fields.sent("push_envelopes") ? try fields.bool("push_envelopes") : nil
            }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = [
                    "email": .string(email), "device_id": .int(deviceID), "nonce": .base64(nonce), "signature": .base64(signature),
                ]
                out.set("push_envelopes", pushEnvelopes.map(JSONValue.bool))
                return out
            }
            public static let fieldNames = ["email", "device_id", "nonce", "signature", "push_envelopes?"]
        }
        public typealias Response = AccountDevice
    }

    /// E-mails a recovery code when the account keeps a key envelope; answers the same either way (`recovery_start`).
    public enum RecoveryStart: APIMethod {
        public static let name = "recovery_start"
        public static let requiresLogin = false

        public struct Request: WireBody {
            public var email: String
            public init(email: String) { self.email = email }
            public init(from fields: WireFields) throws(WireError) { email = try fields.string("email", maxBytes: maximumEmailBytes) }
            public var fields: [String: JSONValue] { ["email": .string(email)] }
            public static let fieldNames = ["email"]
        }
        public typealias Response = CodeSent
    }

    /// Trades the recovery code for the account's key envelope (`recovery_finish`).
    public enum RecoveryFinish: APIMethod {
        public static let name = "recovery_finish"
        public static let requiresLogin = false
        public typealias Request = EmailCode

        public struct Response: WireBody {
            public var accountID: Int64
            public var displayName: String
            public var identityKey: [UInt8]
            public var keyEnvelope: [UInt8]

            public init(accountID: Int64, displayName: String, identityKey: [UInt8], keyEnvelope: [UInt8]) {
                self.accountID = accountID
                self.displayName = displayName
                self.identityKey = identityKey
                self.keyEnvelope = keyEnvelope
            }
            public init(from fields: WireFields) throws(WireError) {
                accountID = try fields.integer("account_id")
                displayName = try fields.string("display_name", maxBytes: 1024)
                identityKey = try fields.bytes("identity_key", count: 32)
                keyEnvelope = try fields.bytes("key_envelope", maxBytes: maximumKeyEnvelopeBytes)
            }
            public var fields: [String: JSONValue] {
                ["account_id": .int(accountID), "display_name": .string(displayName), "identity_key": .base64(identityKey),
                 "key_envelope": .base64(keyEnvelope)]
            }
            public static let fieldNames = ["account_id", "display_name", "identity_key", "key_envelope"]
        }
    }

    /// Deletes the caller's account and everything the server holds for it (`delete_account`).
    public enum DeleteAccount: APIMethod {
        public static let name = "delete_account"
        public static let requiresLogin = true

        public struct Request: WireBody {
            /// The account's e-mail address, typed again so no stray request deletes it.
            public var confirm: String
            public init(confirm: String) { self.confirm = confirm }
            public init(from fields: WireFields) throws(WireError) { confirm = try fields.string("confirm", maxBytes: maximumEmailBytes) }
            public var fields: [String: JSONValue] { ["confirm": .string(confirm)] }
            public static let fieldNames = ["confirm"]
        }

        public struct Response: WireBody {
            public var deleted: Bool
            public init(deleted: Bool = true) { self.deleted = deleted }
            public init(from fields: WireFields) throws(WireError) { deleted = try fields.bool("deleted") }
            public var fields: [String: JSONValue] { ["deleted": .bool(deleted)] }
            public static let fieldNames = ["deleted"]
        }
    }
}

extension WireFields {
    /// Whether the field is in the object at all, null included. Where the server always read a field this way, a
    /// null is refused as the wrong type ("must be true or false, not null") rather than taken for an absent field.
    func sent(_ name: String) -> Bool { values[name] != nil }
}
