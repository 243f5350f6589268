/// Sending, fetching and confirming messages (docs/API.md §6); the message actions are in MessageActions.swift.
extension API {
    static let messageMethods: [any APIMethod.Type] = [
        SendMessage.self, GetMessages.self, ConfirmDelivery.self, MarkRead.self, MarkConversationRead.self,
        ReactMessage.self, PinMessage.self, GetPinnedMessages.self, DeleteMessage.self, GetMessageState.self,
        GetDeletedSince.self, ForwardMessage.self, SearchMessages.self,
    ]

    /// One device's ciphertext of a message.
    public struct Envelope: WireBody {
        /// An envelope holds at most this many bytes.
        public static let maximumBytes = 256 * 1024
        public var accountID: Int64
        /// The device (0, the "self copy" of the first clients, is read but answered `stale_devices`).
        public var deviceID: UInt32
        public var ciphertext: [UInt8]

        public init(accountID: Int64, deviceID: UInt32, ciphertext: [UInt8]) {
            self.accountID = accountID
            self.deviceID = deviceID
            self.ciphertext = ciphertext
        }

        public init(from fields: WireFields) throws(WireError) {
            accountID = try fields.integer("account_id")
            deviceID = try fields.device("device_id")
            ciphertext = try fields.bytes("ciphertext", maxBytes: Self.maximumBytes)
            if ciphertext.isEmpty { throw .invalid(fields.name(of: "ciphertext"), "must not be empty") }
        }

        public var fields: [String: JSONValue] {
            ["account_id": .int(accountID), "device_id": .int(deviceID), "ciphertext": .base64(ciphertext)]
        }
        public static let fieldNames = ["account_id", "device_id", "ciphertext"]
    }

    /// Stores a message with one envelope per recipient device, or for one device only (`send_message`).
    public enum SendMessage: APIMethod {
        public static let name = "send_message"
        public static let requiresLogin = true
        /// A message has at most this many envelopes.
        public static let maximumEnvelopes = 1_024

        public struct Request: WireBody {
            public var conversationID: Int64
            /// The client's idempotency key (≤ 64 bytes).
            public var clientMessageID: String
            /// Metadata the server may see (≤ 16 bytes; "text" when absent).
            public var kind: String
            public var replyTo: Int64?
            public var envelopes: [Envelope]
            /// The one device a directed message is for (docs/API.md §6): `to_account_id` and `to_device_id`.
            public var toAccountID: Int64?
            public var toDeviceID: UInt32?

            public init(
                conversationID: Int64, clientMessageID: String, kind: String = "text", replyTo: Int64? = nil,
                envelopes: [Envelope], toAccountID: Int64? = nil, toDeviceID: UInt32? = nil
            ) {
                self.conversationID = conversationID
                self.clientMessageID = clientMessageID
                self.kind = kind
                self.replyTo = replyTo
                self.envelopes = envelopes
                self.toAccountID = toAccountID
                self.toDeviceID = toDeviceID
            }

            public init(from fields: WireFields) throws(WireError) {
                conversationID = try fields.integer("conversation_id")
                clientMessageID = try fields.string("client_message_id", maxBytes: 64)
                guard !clientMessageID.isEmpty else { throw .invalid("client_message_id", "must not be empty") }
                kind = try fields.optionalString("kind", maxBytes: 16) ?? "text"
                replyTo = try fields.optionalInteger("reply_to")
                envelopes = try fields.list("envelopes", maxCount: SendMessage.maximumEnvelopes)
                var devices = Set<EnvelopeDevice>()
                for envelope in envelopes where !devices.insert(EnvelopeDevice(account: envelope.accountID, device: envelope.deviceID)).inserted {
                    throw .invalid(fields.name(of: "envelopes"), "names a device twice")
                }
                toAccountID = try fields.optionalInteger("to_account_id")
                toDeviceID = try fields.optionalInteger("to_device_id", in: 1...Int64(UInt32.max)).map { UInt32($0) }
                guard (toAccountID == nil) == (toDeviceID == nil) else {
                    throw .invalid(fields.name(of: "to_device_id"), "comes with to_account_id, and both name a device")
                }
            }

            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = [
                    "conversation_id": .int(conversationID), "client_message_id": .string(clientMessageID),
                    "kind": .string(kind), "envelopes": .list(envelopes),
                ]
                out.set("reply_to", replyTo.map(JSONValue.int))
                out.set("to_account_id", toAccountID.map(JSONValue.int))
                out.set("to_device_id", toDeviceID.map(JSONValue.int))
                return out
            }
            public static let fieldNames = [
                "conversation_id", "client_message_id", "kind?", "reply_to?", "envelopes", "to_account_id?", "to_device_id?",
            ]
        }

        public struct Response: WireBody {
            public var messageID: Int64
            public var timestamp: Int64
            public init(messageID: Int64, timestamp: Int64) {
                self.messageID = messageID
                self.timestamp = timestamp
            }
            public init(from fields: WireFields) throws(WireError) {
                messageID = try fields.integer("message_id")
                timestamp = try fields.integer("timestamp")
            }
            public var fields: [String: JSONValue] { ["message_id": .int(messageID), "timestamp": .int(timestamp)] }
            public static let fieldNames = ["message_id", "timestamp"]
        }
    }

    /// A message as `get_messages` lists it for one device, and as a `new_message` notification carries it
    /// (docs/API.md §6.1) — there `ciphertext` is left out when the notification is only a hint.
    public struct StoredMessage: WireBody {
        public var messageID: Int64
        public var conversationID: Int64
        public var senderID: Int64
        public var senderDevice: UInt32
        public var timestamp: Int64
        public var kind: String
        public var replyTo: Int64?
        /// This device's envelope; always present in `get_messages`.
        public var ciphertext: [UInt8]?

        public init(
            messageID: Int64, conversationID: Int64, senderID: Int64, senderDevice: UInt32, timestamp: Int64,
            kind: String, replyTo: Int64? = nil, ciphertext: [UInt8]?
        ) {
            self.messageID = messageID
            self.conversationID = conversationID
            self.senderID = senderID
            self.senderDevice = senderDevice
            self.timestamp = timestamp
            self.kind = kind
            self.replyTo = replyTo
            self.ciphertext = ciphertext
        }

        public init(from fields: WireFields) throws(WireError) {
            messageID = try fields.integer("message_id")
            conversationID = try fields.integer("conversation_id")
            senderID = try fields.integer("sender_id")
            senderDevice = try fields.device("sender_device")
            timestamp = try fields.integer("timestamp")
            kind = try fields.string("kind", maxBytes: 16)
            replyTo = try fields.optionalInteger("reply_to")
            ciphertext = try fields.optionalBytes("ciphertext", maxBytes: Envelope.maximumBytes)
        }

        public var fields: [String: JSONValue] {
            var out: [String: JSONValue] = [
                "message_id": .int(messageID), "conversation_id": .int(conversationID), "sender_id": .int(senderID),
                "sender_device": .int(senderDevice), "timestamp": .int(timestamp), "kind": .string(kind),
            ]
            out.set("reply_to", replyTo.map(JSONValue.int))
            out.set("ciphertext", ciphertext.map(JSONValue.base64))
            return out
        }
        public static let fieldNames = [
            "message_id", "conversation_id", "sender_id", "sender_device", "timestamp", "kind", "reply_to?", "ciphertext?",
        ]
    }

    /// The calling device's messages it has not confirmed yet, oldest first (`get_messages`).
    public enum GetMessages: APIMethod {
        public static let name = "get_messages"
        public static let requiresLogin = true
        /// A page holds at most this many messages.
        public static let maximumPage = 500
        /// A page holds at most this many bytes of ciphertext (its first message always goes, however large), so
        /// one answer is at most about 1.7 MiB of JSON however large the envelopes waiting: 500 envelopes of
        /// 256 KiB would otherwise make one answer of 170 MiB for the server to build and the client to read.
        public static let maximumPageBytes = 1 << 20

        public struct Request: WireBody {
            /// Only messages after this server timestamp (ms); 0 when absent.
            public var afterTimestamp: Int64?
            /// 1–500; 100 when absent.
            public var limit: Int?
            public init(afterTimestamp: Int64? = nil, limit: Int? = nil) {
                self.afterTimestamp = afterTimestamp
                self.limit = limit
            }
            public init(from fields: WireFields) throws(WireError) {
                afterTimestamp = try fields.optionalInteger("after_ts")
                limit = try fields.optionalInteger("limit", in: 1...Int64(GetMessages.maximumPage)).map { Int($0) }
            }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = [:]
                out.set("after_ts", afterTimestamp.map(JSONValue.int))
                out.set("limit", limit.map(JSONValue.int))
                return out
            }
            public static let fieldNames = ["after_ts?", "limit?"]
        }

        public struct Response: WireBody {
            /// Each with its ciphertext.
            public var messages: [StoredMessage]
            public var hasMore: Bool
            public init(messages: [StoredMessage], hasMore: Bool) {
                self.messages = messages
                self.hasMore = hasMore
            }
            public init(from fields: WireFields) throws(WireError) {
                messages = try fields.list("messages", maxCount: GetMessages.maximumPage)
                for (index, message) in messages.enumerated() where message.ciphertext == nil {
                    throw .missing("\(fields.name(of: "messages"))[\(index)].ciphertext")
                }
                hasMore = try fields.bool("has_more")
            }
            public var fields: [String: JSONValue] { ["messages": .list(messages), "has_more": .bool(hasMore)] }
            public static let fieldNames = ["messages", "has_more"]
        }
    }

    /// Confirms messages stored durably; the device's ciphertexts are deleted (`confirm_delivery`).
    public enum ConfirmDelivery: APIMethod {
        public static let name = "confirm_delivery"
        public static let requiresLogin = true

        public struct Request: WireBody {
            public var messageIDs: [Int64]
            public init(messageIDs: [Int64]) { self.messageIDs = messageIDs }
            public init(from fields: WireFields) throws(WireError) {
                messageIDs = try fields.integers("message_ids", maxCount: GetMessages.maximumPage)
            }
            public var fields: [String: JSONValue] { ["message_ids": .ints(messageIDs)] }
            public static let fieldNames = ["message_ids"]
        }

        public struct Response: WireBody {
            /// How many were newly confirmed.
            public var confirmed: Int
            public init(confirmed: Int) { self.confirmed = confirmed }
            public init(from fields: WireFields) throws(WireError) { confirmed = Int(try fields.integer("confirmed")) }
            public var fields: [String: JSONValue] { ["confirmed": .int(confirmed)] }
            public static let fieldNames = ["confirmed"]
        }
    }
}

/// The device an envelope is for, to find one named twice.
private struct EnvelopeDevice: Hashable {
    let account: Int64
    let device: UInt32
}
