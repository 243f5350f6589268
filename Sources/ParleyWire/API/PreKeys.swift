/// The public prekeys a device uploads (`register`, `rotate_keys`, `add_device`, `ensure_prekeys`) and others fetch
/// (`get_key_bundle`), docs/API.md §3 and §4. Signatures are checked by the server against the identity key.
extension API {
    /// A signed prekey (X25519, the `spk*` fields) or post-quantum prekey (ML-KEM-768, the `pqspk*` fields) with the
    /// identity key's signature over it.
    public struct SignedPreKey: Sendable, Equatable {
        /// An X25519 public key's length.
        public static let x25519Length = 32
        /// An ML-KEM-768 public key's length.
        public static let mlkem768Length = 1184
        /// An Ed25519 signature's length.
        public static let signatureLength = 64

        public var id: UInt32
        public var publicKey: [UInt8]
        public var signature: [UInt8]

        public init(id: UInt32, publicKey: [UInt8], signature: [UInt8]) {
            self.id = id
            self.publicKey = publicKey
            self.signature = signature
        }

        /// Reads `<prefix>_id`, `<prefix>` (`keyLength` bytes) and `<prefix>_signature`.
        init(from fields: WireFields, prefix: String, keyLength: Int) throws(WireError) {
            id = UInt32(try fields.integer("\(prefix)_id", in: 0...Int64(UInt32.max - 1)))
            publicKey = try fields.bytes(prefix, count: keyLength)
            signature = try fields.bytes("\(prefix)_signature", count: Self.signatureLength)
        }

        func fields(prefix: String) -> [String: JSONValue] {
            ["\(prefix)_id": .int(id), prefix: .base64(publicKey), "\(prefix)_signature": .base64(signature)]
        }

        static func fieldNames(prefix: String, optional: Bool = false) -> [String] {
            ["\(prefix)_id", prefix, "\(prefix)_signature"].map { optional ? $0 + "?" : $0 }
        }
    }

    /// A one-time prekey: an id (any u32 but `0xFFFFFFFF`) and an X25519 public key.
    public struct OneTimePreKey: WireBody {
        /// At most this many go up in one request.
        public static let maximumPerRequest = 100
        /// At most this many wait on the server for one device: an upload past it is refused whole. A client
        /// keeps a few dozen there (ParleyProtocol's `PreKeyPolicy`); without a bound a device could fill the disk.
        public static let maximumStoredPerDevice = 1_000

        public var id: UInt32
        public var key: [UInt8]
        public init(id: UInt32, key: [UInt8]) {
            self.id = id
            self.key = key
        }
        public init(from fields: WireFields) throws(WireError) {
            id = UInt32(try fields.integer("id", in: 0...Int64(UInt32.max - 1)))
            key = try fields.bytes("key", count: SignedPreKey.x25519Length)
        }
        public var fields: [String: JSONValue] { ["id": .int(id), "key": .base64(key)] }
        public static let fieldNames = ["id", "key"]

        /// The `one_time_prekeys` of an upload: at most 100, ids unique.
        static func list(from fields: WireFields) throws(WireError) -> [OneTimePreKey] {
            let keys = try fields.list("one_time_prekeys", maxCount: maximumPerRequest, of: OneTimePreKey.self)
            var seen = Set<UInt32>()
            for (index, key) in keys.enumerated() where !seen.insert(key.id).inserted {
                throw .invalid("one_time_prekeys[\(index)]", "repeats id \(key.id)")
            }
            return keys
        }
    }

    /// A device's whole prekey upload: signed, post-quantum and one-time prekeys (flat in the request, as
    /// `register`, `rotate_keys` and `add_device` carry them).
    public struct PreKeys: WireBody {
        public var signed: SignedPreKey
        public var pq: SignedPreKey
        public var oneTime: [OneTimePreKey]

        public init(signed: SignedPreKey, pq: SignedPreKey, oneTime: [OneTimePreKey]) {
            self.signed = signed
            self.pq = pq
            self.oneTime = oneTime
        }
        public init(from fields: WireFields) throws(WireError) {
            signed = try SignedPreKey(from: fields, prefix: "spk", keyLength: SignedPreKey.x25519Length)
            pq = try SignedPreKey(from: fields, prefix: "pqspk", keyLength: SignedPreKey.mlkem768Length)
            oneTime = try OneTimePreKey.list(from: fields)
        }
        public var fields: [String: JSONValue] {
            var out = signed.fields(prefix: "spk").merging(pq.fields(prefix: "pqspk")) { _, new in new }
            out["one_time_prekeys"] = .list(oneTime)
            return out
        }
        public static let fieldNames = SignedPreKey.fieldNames(prefix: "spk") + SignedPreKey.fieldNames(prefix: "pqspk") + ["one_time_prekeys"]
    }
}
