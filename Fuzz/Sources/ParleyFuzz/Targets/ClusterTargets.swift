import ParleyWire

extension FuzzTarget {
    static let clusterTargets: [FuzzTarget] = [
        FuzzTarget("cluster-payload", "cluster NOTIFY payloads parse or are refused; a parsed batch, written again, parses to the same batch", run: clusterPayload),
    ]
}

private func clusterPayload(_ bytes: [UInt8]) {
    guard let text = bytes.utf8Text, let batch = ClusterBatch.parse(text) else { return }
    guard let payload = try? batch.payload() else { violated("a parsed batch cannot be written") }
    require(ClusterBatch.parse(payload) == batch, "a batch written again parses to another batch")
}
