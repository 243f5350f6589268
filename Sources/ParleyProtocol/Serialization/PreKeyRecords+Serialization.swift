import ParleyCrypto

extension SignedPreKeyRecord {
    /// `0x01 || 0x12 || id || createdAt || private(32) || signature(64)`.
    public var serialized: [UInt8] {
        var w = RecordWriter(kind: .signedPreKey)
        w.u32(id)
        w.u64(createdAt)
        w.append(keyPair.privateKeyBytes)
        w.append(signature)
        return w.bytes
    }

    /// Restores a signed prekey from its bytes.
    public init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var r = try ByteReader.record(bytes, kind: .signedPreKey)
        let id = try r.u32()
        let createdAt = try r.u64()
        let pair = try X25519KeyPair(privateKeyBytes: try r.field(32))
        let signature = try r.field(64)
        try r.finish()
        self.init(id: id, createdAt: createdAt, keyPair: pair, signature: signature)
    }
}

extension OneTimePreKeyRecord {
    /// `0x01 || 0x13 || id || private(32)`.
    public var serialized: [UInt8] {
        var w = RecordWriter(kind: .oneTimePreKey)
        w.u32(id)
        w.append(keyPair.privateKeyBytes)
        return w.bytes
    }

    /// Restores a one-time prekey from its bytes.
    public init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var r = try ByteReader.record(bytes, kind: .oneTimePreKey)
        let id = try r.u32()
        let pair = try X25519KeyPair(privateKeyBytes: try r.field(32))
        try r.finish()
        self.init(id: id, keyPair: pair)
    }
}

extension PQPreKeyRecord {
    /// `0x01 || 0x14 || id || createdAt || seed(64) || signature(64)`.
    public var serialized: [UInt8] {
        var w = RecordWriter(kind: .pqPreKey)
        w.u32(id)
        w.u64(createdAt)
        w.append(seed)
        w.append(signature)
        return w.bytes
    }

    /// Restores a PQ prekey from its bytes.
    public init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var r = try ByteReader.record(bytes, kind: .pqPreKey)
        let id = try r.u32()
        let createdAt = try r.u64()
        let seed = try r.field(64)
        let signature = try r.field(64)
        try r.finish()
        try self.init(id: id, createdAt: createdAt, seed: seed, signature: signature)
    }
}
