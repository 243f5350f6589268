import ParleyPeerDialects

extension FuzzTarget {
    static let peerDialectTargets: [FuzzTarget] = [
        FuzzTarget("bench-peer-wire", "what `parley bench peer` reads from Prosody, Mosquitto and NATS (the first byte picks the protocol and how the rest is cut): never traps, and gives the same events and the same refusal however a socket cuts the bytes", run: benchPeerWire),
    ]
}

private func benchPeerWire(_ bytes: [UInt8]) {
    guard let selector = bytes.first else { return }
    let protocols = PeerWireProbe.Peer.allCases
    let chosen = protocols[Int(selector) % protocols.count]
    let server = Array(bytes.dropFirst())
    let whole = PeerWireProbe.read([server], as: chosen)
    let cut = PeerWireProbe.read(cuts(server, seed: selector >> 2), as: chosen)
    require(whole.refused == cut.refused, "the bytes were refused read at once but not cut into reads, or the other way round")
    if !whole.refused {
        require(whole.events == cut.events, "the same bytes cut into other reads meant other events")
    }
}

/// `bytes` cut into reads of pseudo-random sizes (xorshift, from `seed`): a socket cuts anywhere.
private func cuts(_ bytes: [UInt8], seed: UInt8) -> [[UInt8]] {
    var state = UInt32(seed) &* 0x9E37_79B9 | 1
    let largest = [1, 2, 3, 7, 16, 100, 1000, 4097][Int(seed & 7)]
    var chunks: [[UInt8]] = []
    var offset = 0
    while offset < bytes.count {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        let end = min(bytes.count, offset + 1 + Int(state % UInt32(largest)))
        chunks.append(Array(bytes[offset..<end]))
        offset = end
    }
    return chunks
}
