import ParleyCrypto

/// The bytes the server stores for one device (docs/CLIENT.md §2).
///
/// `0x01 || kind || body`:
/// - kind `0x01` pairwise: body = a protocol message (0x01 ratchet or 0x02 prekey) for this device;
/// - kind `0x02` group: body = `u32 BE n || n bytes of pairwise-encrypted sender-key distribution (n may be 0) || group message`;
/// - kind `0x04` retry request: body = a `RetryRequest`, signed, not encrypted (§2.1).
///
/// Kind `0x03` (a self copy under a key derived from the identity seed, which the server's password-sealed
/// key envelope holds) is retired: it is refused like any unknown kind.
package enum ClientEnvelope: Equatable {
    case pairwise([UInt8])
    case group(distribution: [UInt8]?, message: [UInt8])
    case retryRequest(RetryRequest)

    package static let version: UInt8 = 0x01

    package var serialized: [UInt8] {
        switch self {
        case .pairwise(let body):
            return [Self.version, 0x01] + body
        case .group(let distribution, let message):
            var out: [UInt8] = [Self.version, 0x02]
            out.appendBigEndian(UInt32(distribution?.count ?? 0))
            out += distribution ?? []
            return out + message
        case .retryRequest(let request):
            return [Self.version, 0x04] + request.serialized
        }
    }

    package init(serialized bytes: [UInt8]) throws(ClientFormatError) {
        guard bytes.count > 2 else { throw .unreadable }
        guard bytes[0] == Self.version else { throw .unreadable }
        let body = Array(bytes[2...])
        switch bytes[1] {
        case 0x01:
            self = .pairwise(body)
        case 0x02:
            guard body.count >= 4 else { throw .unreadable }
            let n = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
            guard n <= body.count - 4, body.count - 4 - n > 0 else { throw .unreadable }
            self = .group(distribution: n == 0 ? nil : Array(body[4..<(4 + n)]), message: Array(body[(4 + n)...]))
        case 0x04:
            self = .retryRequest(try RetryRequest(serialized: body))
        default:
            throw .unreadable
        }
    }
}
