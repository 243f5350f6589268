import ParleyCrypto

/// The `version || kind` prefix of serialised records and the field helpers they share
/// (docs/PROTOCOL.md §9).
public enum RecordKind: UInt8, Sendable {
    /// A session record.
    case sessionRecord = 0x10
    /// A sender-key record.
    case senderKeyRecord = 0x11
    /// A signed prekey.
    case signedPreKey = 0x12
    /// A one-time prekey.
    case oneTimePreKey = 0x13
    /// A post-quantum prekey.
    case pqPreKey = 0x14
    /// A whole session store.
    case sessionStore = 0x20
    /// A whole sender-key store.
    case senderKeyStore = 0x21
    /// A whole signed prekey store.
    case signedPreKeyStore = 0x22
    /// A whole one-time prekey store.
    case oneTimePreKeyStore = 0x23
    /// A whole post-quantum prekey store.
    case pqPreKeyStore = 0x24
}

/// Writing record fields.
struct RecordWriter {
    private(set) var bytes: [UInt8]

    init(kind: RecordKind) {
        bytes = [ProtocolConstants.version, kind.rawValue]
    }

    init() {
        bytes = []
    }

    mutating func append(_ field: [UInt8]) { bytes.append(contentsOf: field) }
    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { bytes.appendBigEndian(value) }
    mutating func u32(_ value: UInt32) { bytes.appendBigEndian(value) }
    mutating func u64(_ value: UInt64) { bytes.appendBigEndian(value) }
    mutating func count(_ value: Int) { bytes.appendBigEndian(UInt32(value)) }

    /// `u32 length || field`.
    mutating func lengthPrefixed(_ field: [UInt8]) {
        count(field.count)
        append(field)
    }

    /// `0x00` or `0x01 || field`.
    mutating func optional<T>(_ value: T?, _ write: (inout RecordWriter, T) -> Void) {
        guard let value else { return u8(0) }
        u8(1)
        write(&self, value)
    }

    /// `u8 length || accountId || u32 deviceId`.
    mutating func address(_ address: ProtocolAddress) {
        let account = Array(address.accountId.utf8)
        u8(UInt8(account.count))
        append(account)
        u32(address.deviceId)
    }
}

extension ByteReader {
    /// Opens a record, checking the version and kind bytes.
    static func record(_ bytes: [UInt8], kind: RecordKind) throws(ProtocolError) -> ByteReader {
        var reader = ByteReader(bytes)
        let version = try reader.u8()
        guard version == ProtocolConstants.version else { throw .unsupportedVersion(version) }
        let raw = try reader.u8()
        guard raw == kind.rawValue else { throw .unexpectedType(raw) }
        return reader
    }

    /// Reads an `opt(x)` flag: false for 0x00, true for 0x01, an error otherwise.
    mutating func flag() throws(ProtocolError) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        default: throw .malformed("optional flag")
        }
    }

    /// Reads a u32 count no larger than `limit`.
    mutating func count(limit: Int) throws(ProtocolError) -> Int {
        let value = try u32()
        guard value <= limit else { throw .tooLarge }
        return Int(value)
    }

    /// Reads a `u32 length || bytes` field.
    mutating func lengthPrefixed() throws(ProtocolError) -> [UInt8] {
        let length = try u32()
        guard length <= remaining else { throw .truncated }
        return try field(Int(length))
    }

    /// Reads an address.
    mutating func address() throws(ProtocolError) -> ProtocolAddress {
        let length = Int(try u8())
        guard length > 0, let account = String(validating: try field(length), as: UTF8.self) else {
            throw .malformed("account id")
        }
        return ProtocolAddress(accountId: account, deviceId: try u32())
    }
}
