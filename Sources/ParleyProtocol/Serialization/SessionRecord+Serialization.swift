import ParleyCrypto

extension SessionState {
    /// The state's bytes (docs/PROTOCOL.md §9.1).
    var serialized: [UInt8] {
        var w = RecordWriter()
        w.append(localIdentityKey)
        w.append(remoteIdentityKey)
        w.u8(role.rawValue)
        w.append(baseKey)
        w.append(rootKey.key)
        w.append(sendingRatchetKey.privateKeyBytes)
        w.optional(remoteRatchetKey) { $0.append($1) }
        w.optional(sendingChain) { $0.append($1.key); $0.u32($1.index) }
        w.optional(receivingChain) { $0.append($1.key); $0.u32($1.index) }
        w.u32(previousCounter)
        w.optional(pendingPreKey) { w, p in
            w.u32(p.signedPreKeyId)
            w.u32(p.oneTimePreKeyId ?? ProtocolConstants.noOneTimePreKey)
            w.u32(p.pqPreKeyId)
            w.append(p.kemCiphertext)
        }
        w.count(skippedKeys.count)
        for entry in skippedKeys.entries {
            w.append(entry.ratchetKey)
            w.u32(entry.index)
            w.append(entry.messageKey)
        }
        return w.bytes
    }

    /// Parses a state's bytes, refusing anything malformed.
    init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var r = ByteReader(bytes)
        let local = try r.field(32)
        let remote = try r.field(32)
        guard let role = Role(rawValue: try r.u8()) else { throw .malformed("session role") }
        let baseKey = try r.field(32)
        let rootKey = RootKey(key: try r.field(32))
        let ratchet = try X25519KeyPair(privateKeyBytes: try r.field(32))
        let remoteRatchet = try r.flag() ? try r.field(32) : nil
        let sending = try r.flag() ? ChainKey(key: try r.field(32), index: try r.u32()) : nil
        let receiving = try r.flag() ? ChainKey(key: try r.field(32), index: try r.u32()) : nil
        let previousCounter = try r.u32()
        var pending: PendingPreKey?
        if try r.flag() {
            let spk = try r.u32()
            let opk = try r.u32()
            pending = PendingPreKey(
                signedPreKeyId: spk, oneTimePreKeyId: opk == ProtocolConstants.noOneTimePreKey ? nil : opk,
                pqPreKeyId: try r.u32(), kemCiphertext: try r.field(PreKeyMessage.kemCiphertextSize))
        }
        let count = try r.count(limit: ProtocolConstants.maxStoredSkippedKeys)
        var entries: [SkippedMessageKeys.Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            entries.append(.init(ratchetKey: try r.field(32), index: try r.u32(), messageKey: try r.field(32)))
        }
        try r.finish()
        self.init(
            localIdentityKey: local, remoteIdentityKey: remote, role: role, baseKey: baseKey, rootKey: rootKey,
            sendingRatchetKey: ratchet, remoteRatchetKey: remoteRatchet, sendingChain: sending,
            receivingChain: receiving, previousCounter: previousCounter, pendingPreKey: pending,
            skippedKeys: SkippedMessageKeys(entries: entries))
    }
}

extension SessionRecord {
    /// The record's versioned bytes, for the encrypted local store.
    public var serialized: [UInt8] {
        var w = RecordWriter(kind: .sessionRecord)
        w.count(states.count)
        for state in states { w.lengthPrefixed(state.serialized) }
        return w.bytes
    }

    /// Restores a record from its bytes; behaviour after a round trip is identical.
    public init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var r = try ByteReader.record(bytes, kind: .sessionRecord)
        let count = try r.count(limit: ProtocolConstants.maxArchivedStates + 1)
        guard count > 0 else { throw .malformed("empty session record") }
        var states: [SessionState] = []
        for _ in 0..<count { states.append(try SessionState(serialized: try r.lengthPrefixed())) }
        try r.finish()
        self.init(states: states)
    }
}
