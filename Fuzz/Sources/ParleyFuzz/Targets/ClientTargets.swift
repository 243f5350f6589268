import ParleyClientFormats

extension FuzzTarget {
    static let clientTargets: [FuzzTarget] = [
        FuzzTarget("client-envelope", "client envelopes and retry requests decode or fail cleanly and re-encode to the same bytes; message content re-encodes stably", run: clientEnvelope),
    ]
}

private func clientEnvelope(_ bytes: [UInt8]) {
    requireCanonical(bytes, "ClientEnvelope", decode: { try ClientFormats.reencodedEnvelope($0) }, encode: { $0 })
    requireCanonical(bytes, "RetryRequest", decode: { try ClientFormats.reencodedRetryRequest($0) }, encode: { $0 })
    requireStable(bytes, "MessageContent", decode: { try ClientFormats.reencodedContent($0) }, encode: { try ClientFormats.reencodedContent($0) })
}
