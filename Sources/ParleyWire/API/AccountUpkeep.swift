/// Account upkeep: the key envelope, the username, key rotation, leaving devices (docs/API.md §10).
extension API {
    static let upkeepMethods: [any APIMethod.Type] = [
        ChangePassword.self, GetKeyEnvelope.self, ChangeUsername.self, RotateKeys.self, RemoveDevice.self, SignOut.self,
    ]

    /// The account's password-sealed key envelope (ECP1).
    public struct KeyEnvelopeBody: WireBody {
        public var keyEnvelope: [UInt8]
        public init(keyEnvelope: [UInt8]) { self.keyEnvelope = keyEnvelope }
        public init(from fields: WireFields) throws(WireError) {
            keyEnvelope = try fields.bytes("key_envelope", maxBytes: maximumKeyEnvelopeBytes)
        }
        public var fields: [String: JSONValue] { ["key_envelope": .base64(keyEnvelope)] }
        public static let fieldNames = ["key_envelope"]
    }

    /// Replaces (or, with none, removes) the stored key envelope; the server never sees a password (`change_password`).
    public enum ChangePassword: APIMethod {
        public static let name = "change_password"
        public static let requiresLogin = true

        public struct Request: WireBody {
            /// The new envelope; nil (absent or null) removes the stored one.
            public var keyEnvelope: [UInt8]?
            public init(keyEnvelope: [UInt8]?) { self.keyEnvelope = keyEnvelope }
            public init(from fields: WireFields) throws(WireError) {
                keyEnvelope = try fields.optionalBytes("key_envelope", maxBytes: maximumKeyEnvelopeBytes)
            }
            public var fields: [String: JSONValue] { ["key_envelope": keyEnvelope.map(JSONValue.base64) ?? .null] }
            public static let fieldNames = ["key_envelope?"]
        }
        public typealias Response = NoFields
    }

    /// The stored key envelope, for restoring keys with the password (`get_key_envelope`).
    public enum GetKeyEnvelope: APIMethod {
        public static let name = "get_key_envelope"
        public static let requiresLogin = true
        public typealias Request = NoFields
        public typealias Response = KeyEnvelopeBody
    }

    /// Sets the caller's unique handle, shown as the `username` profile field (`change_username`).
    public enum ChangeUsername: APIMethod {
        public static let name = "change_username"
        public static let requiresLogin = true

        public struct Request: WireBody {
            /// 3–32 of a–z, 0–9, `_` and `.` (read in lower case).
            public var username: String
            /// Who sees it; everyone when nil.
            public var visibility: Visibility?

            public init(username: String, visibility: Visibility? = nil) {
                self.username = username
                self.visibility = visibility
            }
            public init(from fields: WireFields) throws(WireError) {
                username = try Self.checked(try fields.string("username", maxBytes: 32), field: "username")
                visibility = try fields.optionalChoice("visibility")
            }

            /// `username` in lower case if it has the form a username takes; the same rule wherever one is set
            /// (`update_profile`'s `username` field too).
            public static func checked(_ username: String, field: String) throws(WireError) -> String {
                let lowered = username.lowercased()
                guard (3...32).contains(lowered.utf8.count),
                      lowered.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") })
                else {
                    throw .invalid(field, "must be 3–32 characters of a–z, 0–9, '_' and '.'")
                }
                return lowered
            }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = ["username": .string(username)]
                out.set("visibility", visibility.map { .string($0.rawValue) })
                return out
            }
            public static let fieldNames = ["username", "visibility?"]
        }

        public struct Response: WireBody {
            /// The username as stored (lower case).
            public var username: String
            public init(username: String) { self.username = username }
            public init(from fields: WireFields) throws(WireError) { username = try fields.string("username", maxBytes: 32) }
            public var fields: [String: JSONValue] { ["username": .string(username)] }
            public static let fieldNames = ["username"]
        }
    }

    /// Replaces the identity and auth keys with this device's prekeys signed by the new identity; every other
    /// device of the account is removed (`rotate_keys`).
    public enum RotateKeys: APIMethod {
        public static let name = "rotate_keys"
        public static let requiresLogin = true

        public struct Request: WireBody {
            public var identityKey: [UInt8]
            public var authKey: [UInt8]
            public var preKeys: PreKeys

            public init(identityKey: [UInt8], authKey: [UInt8], preKeys: PreKeys) {
                self.identityKey = identityKey
                self.authKey = authKey
                self.preKeys = preKeys
            }
            public init(from fields: WireFields) throws(WireError) {
                identityKey = try fields.bytes("identity_key", count: 32)
                authKey = try fields.bytes("auth_key", count: 32)
                preKeys = try PreKeys(from: fields)
            }
            public var fields: [String: JSONValue] {
                var out = preKeys.fields
                out["identity_key"] = .base64(identityKey)
                out["auth_key"] = .base64(authKey)
                return out
            }
            public static let fieldNames = ["identity_key", "auth_key"] + PreKeys.fieldNames
        }
        public typealias Response = NoFields
    }

    /// Revokes another device of the caller's account (`remove_device`).
    public enum RemoveDevice: APIMethod {
        public static let name = "remove_device"
        public static let requiresLogin = true

        public struct Request: WireBody {
            /// The device; not the calling one.
            public var deviceID: UInt32
            public init(deviceID: UInt32) { self.deviceID = deviceID }
            public init(from fields: WireFields) throws(WireError) { deviceID = try fields.device("device_id", in: 1...Int64(UInt32.max)) }
            public var fields: [String: JSONValue] { ["device_id": .int(deviceID)] }
            public static let fieldNames = ["device_id"]
        }
        public typealias Response = NoFields
    }

    /// The calling device leaves the account for good (`sign_out`).
    public enum SignOut: APIMethod {
        public static let name = "sign_out"
        public static let requiresLogin = true
        public typealias Request = NoFields
        public typealias Response = NoFields
    }
}
