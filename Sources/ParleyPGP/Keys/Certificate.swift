/// A transferable public or secret key (RFC 4880 §11.1–11.2): primary key, user IDs, subkeys and
/// their signatures, as read. Validation (which parts are bound and usable) is in `Certificate+Validity`.
public struct Certificate: Sendable {
    /// A user ID and the signatures over it.
    public struct UserID: Sendable {
        /// The raw user ID (conventionally UTF-8 "Name <email>").
        public let value: [UInt8]
        /// Certifications and revocations over this user ID.
        public let signatures: [Signature]
        /// The user ID as text.
        public var string: String { String(decoding: value, as: UTF8.self) }
    }

    /// A subkey and its binding and revocation signatures.
    public struct Subkey: Sendable {
        /// The subkey.
        public let key: PublicKey
        /// Binding and revocation signatures.
        public let signatures: [Signature]
    }

    /// The primary key.
    public let primaryKey: PublicKey
    /// Direct-key signatures and key revocations on the primary key.
    public let directSignatures: [Signature]
    /// User IDs with their signatures.
    public let userIDs: [UserID]
    /// Subkeys with their signatures.
    public let subkeys: [Subkey]
    /// Secret parts, present when read from a secret key (primary and/or subkeys).
    public let secretKeys: [SecretKey]

    /// The primary key's fingerprint.
    public var fingerprint: [UInt8] { primaryKey.fingerprint }

    /// Reads every certificate in a packet sequence (a keyring may hold several).
    public static func readAll(_ packets: [Packet]) throws -> [Certificate] {
        var certificates: [Certificate] = []
        var index = 0
        while index < packets.count {
            let tag = packets[index].tag
            guard tag == .publicKey || tag == .secretKey else {
                if tag == .marker || tag == .trust || tag == .padding { index += 1; continue }
                throw PGPError.malformed("a key must start with a primary key packet")
            }
            var end = index + 1
            while end < packets.count, packets[end].tag != .publicKey, packets[end].tag != .secretKey { end += 1 }
            certificates.append(try Certificate(packets: Array(packets[index..<end])))
            index = end
        }
        return certificates
    }

    /// Reads certificates from binary bytes, or from one or more armored blocks one after another.
    public static func readAll(_ bytes: [UInt8]) throws -> [Certificate] {
        guard Armor.isArmored(bytes) else { return try readAll(PacketParser.parse(bytes)) }
        return try Armor.blocks(bytes).flatMap { try readAll(PacketParser.parse($0.data)) }
    }

    /// Reads one transferable key from its packets.
    public init(packets: [Packet]) throws {
        guard let first = packets.first else { throw PGPError.malformed("empty key") }
        var secrets: [SecretKey] = []
        func key(_ packet: Packet) throws -> PublicKey {
            if packet.tag == .secretKey || packet.tag == .secretSubkey {
                let secret = try SecretKey(packetBody: packet.body, subkey: packet.tag == .secretSubkey)
                secrets.append(secret)
                return secret.publicKey
            }
            return try PublicKey(packetBody: packet.body)
        }
        primaryKey = try key(first)
        var direct: [Signature] = []
        var userIDs: [UserID] = []
        var subkeys: [Subkey] = []
        var currentUserID: [UInt8]?
        var currentSubkey: PublicKey?
        var pending: [Signature] = []
        var skipping = false  // inside a user attribute or an unsupported subkey
        func flush() {
            if let id = currentUserID { userIDs.append(UserID(value: id, signatures: pending)) }
            else if let sub = currentSubkey { subkeys.append(Subkey(key: sub, signatures: pending)) }
            else if !skipping { direct += pending }
            pending = []
            currentUserID = nil
            currentSubkey = nil
            skipping = false
        }
        for packet in packets.dropFirst() {
            switch packet.tag {
            case .signature:
                // Signatures we cannot parse (v3, unknown algorithms) are ignored, not fatal.
                if let signature = try? Signature(packetBody: packet.body) { pending.append(signature) }
            case .userID:
                flush()
                currentUserID = packet.body
            case .userAttribute:
                flush()
                skipping = true
            case .publicSubkey, .secretSubkey:
                flush()
                do {
                    currentSubkey = try key(packet)
                } catch PGPError.unsupported {
                    skipping = true  // e.g. an ElGamal or DSA subkey: skip it, keep the rest
                }
            case .trust, .marker, .padding:
                continue
            default:
                throw PGPError.malformed("unexpected packet \(packet.tagNumber) inside a key")
            }
        }
        flush()
        directSignatures = direct
        self.userIDs = userIDs
        self.subkeys = subkeys
        secretKeys = secrets
    }

    init(primaryKey: PublicKey, directSignatures: [Signature], userIDs: [UserID], subkeys: [Subkey], secretKeys: [SecretKey]) {
        self.primaryKey = primaryKey
        self.directSignatures = directSignatures
        self.userIDs = userIDs
        self.subkeys = subkeys
        self.secretKeys = secretKeys
    }

    /// Whether this key carries secret parts.
    public var isSecret: Bool { !secretKeys.isEmpty }

    /// The certificate without any secret parts.
    public var publicCertificate: Certificate {
        Certificate(primaryKey: primaryKey, directSignatures: directSignatures, userIDs: userIDs, subkeys: subkeys, secretKeys: [])
    }

    /// The packets: secret key packets where secrets are held, public ones otherwise.
    public var packets: [Packet] {
        func packet(for key: PublicKey, primary: Bool) -> Packet {
            if let secret = secretKeys.first(where: { $0.publicKey == key }) {
                return Packet(primary ? .secretKey : .secretSubkey, body: secret.body)
            }
            return Packet(primary ? .publicKey : .publicSubkey, body: key.body)
        }
        var out = [packet(for: primaryKey, primary: true)]
        out += directSignatures.map { Packet(.signature, body: $0.body) }
        for userID in userIDs {
            out.append(Packet(.userID, body: userID.value))
            out += userID.signatures.map { Packet(.signature, body: $0.body) }
        }
        for subkey in subkeys {
            out.append(packet(for: subkey.key, primary: false))
            out += subkey.signatures.map { Packet(.signature, body: $0.body) }
        }
        return out
    }

    /// The key armored: a public key block, or a private key block when it holds secrets.
    public var armored: String {
        Armor.encode(packets.encoded, as: isSecret ? .privateKey : .publicKey)
    }

    /// Every key (primary and subkeys) in this certificate.
    public var allKeys: [PublicKey] { [primaryKey] + subkeys.map(\.key) }

    /// The secret part for `key`, if held.
    public func secretKey(for key: PublicKey) -> SecretKey? {
        secretKeys.first { $0.publicKey == key }
    }
}
