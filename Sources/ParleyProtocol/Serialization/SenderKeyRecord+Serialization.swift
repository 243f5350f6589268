import Crypto
import ParleyCrypto

extension SenderKeyState {
    /// The state's bytes (docs/PROTOCOL.md §9.2).
    func write(to w: inout RecordWriter) {
        w.append(chainId)
        w.u32(chain.index)
        w.append(chain.key)
        w.append(signingPublic)
        w.optional(signingPrivate) { $0.append(Array($1.rawRepresentation)) }
        w.count(skippedKeys.count)
        for entry in skippedKeys.entries {
            w.u32(entry.index)
            w.append(entry.messageKey)
        }
    }

    /// Reads a state.
    init(reading r: inout ByteReader) throws(ProtocolError) {
        let chainId = try r.field(32)
        let iteration = try r.u32()
        let chainKey = try r.field(32)
        let signingPublic = try r.field(32)
        var signingPrivate: Curve25519.Signing.PrivateKey?
        if try r.flag() {
            guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: try r.field(32)),
                Array(key.publicKey.rawRepresentation) == signingPublic
            else { throw .malformed("sender signing key") }
            signingPrivate = key
        }
        let count = try r.count(limit: ProtocolConstants.maxStoredSkippedKeys)
        var entries: [SkippedMessageKeys.Entry] = []
        for _ in 0..<count {
            entries.append(.init(ratchetKey: [], index: try r.u32(), messageKey: try r.field(32)))
        }
        self.init(
            chainId: chainId, chain: ChainKey(key: chainKey, index: iteration), signingPublic: signingPublic,
            signingPrivate: signingPrivate, skippedKeys: SkippedMessageKeys(entries: entries))
    }
}

extension SenderKeyRecord {
    /// The record's versioned bytes, for the encrypted local store.
    public var serialized: [UInt8] {
        var w = RecordWriter(kind: .senderKeyRecord)
        w.count(states.count)
        for state in states { state.write(to: &w) }
        return w.bytes
    }

    /// Restores a record from its bytes; behaviour after a round trip is identical.
    public init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var r = try ByteReader.record(bytes, kind: .senderKeyRecord)
        let count = try r.count(limit: ProtocolConstants.maxSenderKeyStates)
        guard count > 0 else { throw .malformed("empty sender-key record") }
        var states: [SenderKeyState] = []
        for _ in 0..<count { states.append(try SenderKeyState(reading: &r)) }
        try r.finish()
        self.init(states: states)
    }
}
