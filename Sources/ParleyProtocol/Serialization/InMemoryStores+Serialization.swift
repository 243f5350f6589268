import ParleyCrypto

extension InMemorySessionStore {
    /// The whole store as versioned bytes, entries sorted by address.
    public var serialized: [UInt8] {
        let entries = records.withLock { $0.sorted { $0.key < $1.key } }
        var w = RecordWriter(kind: .sessionStore)
        w.count(entries.count)
        for (address, record) in entries {
            w.address(address)
            w.lengthPrefixed(record.serialized)
        }
        return w.bytes
    }

    /// Restores a store from its bytes.
    public convenience init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var r = try ByteReader.record(bytes, kind: .sessionStore)
        let count = try r.count(limit: r.remaining)
        var records: [ProtocolAddress: SessionRecord] = [:]
        for _ in 0..<count {
            let address = try r.address()
            records[address] = try SessionRecord(serialized: try r.lengthPrefixed())
        }
        try r.finish()
        self.init(records: records)
    }
}

extension InMemorySenderKeyStore {
    /// The whole store as versioned bytes, entries sorted by group then sender.
    public var serialized: [UInt8] {
        let entries = records.withLock { $0.sorted { $0.key < $1.key } }
        var w = RecordWriter(kind: .senderKeyStore)
        w.count(entries.count)
        for (name, record) in entries {
            let group = Array(name.groupId.utf8)
            w.u16(UInt16(group.count))
            w.append(group)
            w.address(name.sender)
            w.lengthPrefixed(record.serialized)
        }
        return w.bytes
    }

    /// Restores a store from its bytes.
    public convenience init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var r = try ByteReader.record(bytes, kind: .senderKeyStore)
        let count = try r.count(limit: r.remaining)
        var records: [SenderKeyName: SenderKeyRecord] = [:]
        for _ in 0..<count {
            let length = Int(try r.u8()) << 8 | Int(try r.u8())
            guard let group = String(validating: try r.field(length), as: UTF8.self) else {
                throw .malformed("group id")
            }
            let sender = try r.address()
            records[SenderKeyName(groupId: group, sender: sender)] = try SenderKeyRecord(
                serialized: try r.lengthPrefixed())
        }
        try r.finish()
        self.init(records: records)
    }
}

extension InMemorySignedPreKeyStore {
    /// The whole store as versioned bytes, sorted by id.
    public var serialized: [UInt8] {
        var w = RecordWriter(kind: .signedPreKeyStore)
        let all = allSignedPreKeys()
        w.count(all.count)
        for record in all { w.lengthPrefixed(record.serialized) }
        return w.bytes
    }

    /// Restores a store from its bytes.
    public convenience init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var r = try ByteReader.record(bytes, kind: .signedPreKeyStore)
        let count = try r.count(limit: r.remaining)
        var records: [SignedPreKeyRecord] = []
        for _ in 0..<count { records.append(try SignedPreKeyRecord(serialized: try r.lengthPrefixed())) }
        try r.finish()
        self.init(records)
    }
}

extension InMemoryPreKeyStore {
    /// The whole store as versioned bytes, sorted by id.
    public var serialized: [UInt8] {
        let all = records.withLock { $0.values.sorted { $0.id < $1.id } }
        var w = RecordWriter(kind: .oneTimePreKeyStore)
        w.count(all.count)
        for record in all { w.lengthPrefixed(record.serialized) }
        return w.bytes
    }

    /// Restores a store from its bytes.
    public convenience init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var r = try ByteReader.record(bytes, kind: .oneTimePreKeyStore)
        let count = try r.count(limit: r.remaining)
        var records: [OneTimePreKeyRecord] = []
        for _ in 0..<count { records.append(try OneTimePreKeyRecord(serialized: try r.lengthPrefixed())) }
        try r.finish()
        self.init(records)
    }
}

extension InMemoryPQPreKeyStore {
    /// The whole store as versioned bytes, sorted by id.
    public var serialized: [UInt8] {
        let all = records.withLock { $0.values.sorted { $0.id < $1.id } }
        var w = RecordWriter(kind: .pqPreKeyStore)
        w.count(all.count)
        for record in all { w.lengthPrefixed(record.serialized) }
        return w.bytes
    }

    /// Restores a store from its bytes.
    public convenience init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var r = try ByteReader.record(bytes, kind: .pqPreKeyStore)
        let count = try r.count(limit: r.remaining)
        var records: [PQPreKeyRecord] = []
        for _ in 0..<count { records.append(try PQPreKeyRecord(serialized: try r.lengthPrefixed())) }
        try r.finish()
        self.init(records)
    }
}
