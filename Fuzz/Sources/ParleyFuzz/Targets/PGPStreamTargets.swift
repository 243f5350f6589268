import ParleyPGP

extension FuzzTarget {
    static let pgpStreamTargets: [FuzzTarget] = [
        FuzzTarget("pgp-stream-decrypt", "the streaming decryptor (password `fuzz`, a fixture secret key, strict or not) gives the same result or error fed in random-sized chunks as fed at once, agrees with the in-memory decryptor on success and content, and nothing decrypts", prepare: { _ = pgpFixtureCertificate }, run: pgpStreamDecrypt),
        FuzzTarget("pgp-stream-verify", "streamed dearmoring, cleartext and inline verification and detached verification give the same result fed in random-sized chunks as at once, and agree with the in-memory readers", prepare: { _ = pgpFixtureCertificate }, run: pgpStreamVerify),
    ]
}

/// A certificate with its secret keys unlocked (no pass phrase): PKESKs to it reach the public-key paths,
/// and signatures are checked against it. Made once per process; the fuzzer cannot know its keys.
let pgpFixtureCertificate: Certificate = try! KeyGenerator.generate(userIDs: ["fuzz <fuzz@example.org>"], passphrase: nil, now: pgpFuzzNow - 86400)

/// 2026-11-25, so signature times are judged against a fixed clock.
let pgpFuzzNow: UInt32 = 1_795_564_800

/// What a streamed decryption is compared by (the content is compared as the output).
private struct Streamed: Equatable {
    let format: UInt8, filename: [UInt8], date: UInt32, byteCount: Int, decrypted: Bool, failures: [PGPError?]

    init(_ result: Decryptor.StreamResult) {
        format = result.format
        filename = result.filename
        date = result.date
        byteCount = result.byteCount
        decrypted = result.sessionKey != nil
        failures = result.verifications.map(\.failure)
    }
}

private func pgpStreamDecrypt(_ input: [UInt8]) {
    guard let (seed, bytes) = input.selectorAndRest else { return }
    var decryptor = Decryptor(now: pgpFuzzNow)
    decryptor.passwords = [Array(Fixtures.password.utf8)]
    decryptor.keys = [pgpFixtureCertificate]
    decryptor.verifiers = [pgpFixtureCertificate]
    decryptor.strict = seed & 0x80 == 0
    // GnuPG's password message alone asks for 130 MB of hashing, three times per input: a small limit keeps
    // the fuzzer at thousands of inputs a second and still reaches the limit's own refusal.
    decryptor.passwordWorkLimit = 1 << 22
    let once = StreamOutcome { try Streamed(decryptor.decrypt(from: PGPMemoryInput(bytes), to: $0)) }
    let chunked = StreamOutcome { try Streamed(decryptor.decrypt(from: ChunkedInput(bytes, seed: seed), to: $0)) }
    require(once == chunked, "the streaming decryptor answers otherwise fed in chunks: \(once) / \(chunked)")
    let whole = try? decryptor.decrypt(bytes)
    require((whole != nil) == (once.value != nil), "the streaming and in-memory decryptors disagree on success: \(once) / \(whole == nil ? "failed" : "read")")
    if let whole, let (streamed, output) = once.value {
        require(whole.literal.data == output && whole.literal.format == streamed.format && whole.literal.filename == streamed.filename
                // Which signatures verify, not why the others do not: a signature no one-pass packet announced
                // cannot be checked by the streaming reader (its hash did not run), the in-memory one says why.
                && whole.verifications.map { $0.failure == nil } == streamed.failures.map { $0 == nil }, "the streaming and in-memory decryptors read different content: \(streamed) \(output.count) bytes / format \(whole.literal.format), \(whole.literal.data.count) bytes, \(whole.verifications.map(\.failure))")
    }
    require(whole?.sessionKey == nil && once.value?.0.decrypted != true, "a message decrypted with keys the fuzzer does not know")
}

private func pgpStreamVerify(_ input: [UInt8]) {
    guard let (seed, bytes) = input.selectorAndRest else { return }
    let certificates = [pgpFixtureCertificate]
    switch seed >> 6 {
    case 0:
        let once = StreamOutcome { try Armor.decode(from: PGPMemoryInput(bytes), to: $0); return true }
        let chunked = StreamOutcome { try Armor.decode(from: ChunkedInput(bytes, seed: seed), to: $0); return true }
        require(once == chunked, "streamed dearmoring answers otherwise fed in chunks")
        if let (_, output) = once.value, let whole = try? Armor.unwrap(bytes) {
            require(whole == output, "streamed and in-memory dearmoring give different bytes")
        }
    case 1:
        let read: (PGPInput, PGPMemoryOutput) throws -> [PGPError?] = {
            try CleartextSignature.verify(from: $0, to: $1, certificates: certificates, now: pgpFuzzNow).map(\.failure)
        }
        let once = StreamOutcome { try read(PGPMemoryInput(bytes), $0) }
        let chunked = StreamOutcome { try read(ChunkedInput(bytes, seed: seed), $0) }
        require(once == chunked, "streamed cleartext verification answers otherwise fed in chunks")
        if let text = bytes.utf8Text, let whole = try? CleartextSignature.verify(text, certificates: certificates, now: pgpFuzzNow),
           let (failures, output) = once.value {
            require(Array(whole.text.utf8) == output && whole.verifications.map(\.failure) == failures,
                    "streamed and in-memory cleartext verification differ")
        }
    case 2:
        let read: (PGPInput, PGPMemoryOutput) throws -> [PGPError?] = {
            try Verification.inline(from: $0, to: $1, certificates: certificates, now: pgpFuzzNow).map(\.failure)
        }
        let once = StreamOutcome { try read(PGPMemoryInput(bytes), $0) }
        let chunked = StreamOutcome { try read(ChunkedInput(bytes, seed: seed), $0) }
        require(once == chunked, "streamed inline verification answers otherwise fed in chunks")
    default:
        // The first byte after the seed says how long the signature is; the rest is the signed data.
        guard let length = bytes.first.map(Int.init), bytes.count > length else { return }
        let signature = Array(bytes[1..<(1 + length)]), data = Array(bytes[(1 + length)...])
        let verify: (PGPInput) throws -> [PGPError?] = {
            try Verification.detached(signature, input: $0, certificates: certificates, now: pgpFuzzNow).map(\.failure)
        }
        let once = StreamOutcome { _ in try verify(PGPMemoryInput(data)) }
        let chunked = StreamOutcome { _ in try verify(ChunkedInput(data, seed: seed)) }
        require(once == chunked, "streamed detached verification answers otherwise fed in chunks")
        let whole = try? Verification.detached(signature, data: data, certificates: certificates, now: pgpFuzzNow).map(\.failure)
        require(whole == once.value?.0, "streamed and in-memory detached verification differ")
    }
}
