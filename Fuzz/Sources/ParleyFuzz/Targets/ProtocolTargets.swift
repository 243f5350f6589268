import ParleyProtocol

extension FuzzTarget {
    static let protocolTargets: [FuzzTarget] = [
        FuzzTarget("protocol-message", "protocol messages (ratchet, prekey, group, distribution) decode or fail cleanly and re-encode to the same bytes", run: protocolMessage),
        FuzzTarget("protocol-record", "stored records and whole stores decode or fail cleanly and re-encode to the same bytes", run: protocolRecord),
    ]
}

private func protocolMessage(_ bytes: [UInt8]) {
    requireCanonical(bytes, "ProtocolMessage", decode: { try ProtocolMessage(serialized: $0) }, encode: \.serialized)
    requireCanonical(bytes, "RatchetMessage", decode: { try RatchetMessage(serialized: $0) }, encode: \.serialized)
    requireCanonical(bytes, "PreKeyMessage", decode: { try PreKeyMessage(serialized: $0) }, encode: \.serialized)
    requireCanonical(bytes, "GroupMessage", decode: { try GroupMessage(serialized: $0) }, encode: \.serialized)
    requireCanonical(bytes, "SenderKeyDistributionMessage", decode: { try SenderKeyDistributionMessage(serialized: $0) }, encode: \.serialized)
}

private func protocolRecord(_ bytes: [UInt8]) {
    // The kind byte picks one decoder; every decoder also sees every input, which finds kind-confusion bugs.
    requireCanonical(bytes, "SessionRecord", decode: { try SessionRecord(serialized: $0) }, encode: \.serialized)
    requireCanonical(bytes, "SenderKeyRecord", decode: { try SenderKeyRecord(serialized: $0) }, encode: \.serialized)
    requireCanonical(bytes, "SignedPreKeyRecord", decode: { try SignedPreKeyRecord(serialized: $0) }, encode: \.serialized)
    requireCanonical(bytes, "OneTimePreKeyRecord", decode: { try OneTimePreKeyRecord(serialized: $0) }, encode: \.serialized)
    requireCanonical(bytes, "PQPreKeyRecord", decode: { try PQPreKeyRecord(serialized: $0) }, encode: \.serialized)
    requireCanonical(bytes, "InMemorySessionStore", decode: { try InMemorySessionStore(serialized: $0) }, encode: \.serialized)
    requireCanonical(bytes, "InMemorySenderKeyStore", decode: { try InMemorySenderKeyStore(serialized: $0) }, encode: \.serialized)
    requireCanonical(bytes, "InMemorySignedPreKeyStore", decode: { try InMemorySignedPreKeyStore(serialized: $0) }, encode: \.serialized)
    requireCanonical(bytes, "InMemoryPreKeyStore", decode: { try InMemoryPreKeyStore(serialized: $0) }, encode: \.serialized)
    requireCanonical(bytes, "InMemoryPQPreKeyStore", decode: { try InMemoryPQPreKeyStore(serialized: $0) }, encode: \.serialized)
}
