import Foundation
import ParleyCrypto

extension FuzzTarget {
    static let cryptoTargets: [FuzzTarget] = [
        FuzzTarget("key-envelope", "ECP1 envelopes parse or fail cleanly; none opens under a password the fuzzer does not know", run: keyEnvelope),
        FuzzTarget("pairing", "pairing codes read back as themselves from their text; key payloads re-encode stably; no box opens under the fixture channel's key", prepare: { _ = Fixtures.pairing }, run: pairing),
        FuzzTarget("verification-qr", "verification payloads, their QR text and scanned bytes decode to what re-encodes to the same bytes", run: verificationQR),
        FuzzTarget("apple-ecies", "Apple ECIES blobs and P-256 key files fail cleanly; no blob opens under the fixture key", prepare: { _ = Fixtures.p256 }, run: appleECIES),
    ]
}

/// Iterations above this are not opened (PBKDF2 would make one input take seconds); the parse still runs.
private let maximumFuzzedIterations: UInt32 = 2_000

private func keyEnvelope(_ bytes: [UInt8]) {
    let envelope = KeyEnvelope(bytes: bytes)
    guard let iterations = envelope.iterations, iterations <= maximumFuzzedIterations else { return }
    require((try? envelope.open(password: Fixtures.password)) == nil, "a key envelope opened under a password the fuzzer does not know")
}

private func pairing(_ bytes: [UInt8]) {
    // JSON read by JSONDecoder: any key order, spacing or base64 padding bits decode, so the property is stability.
    requireStable(bytes, "PairingKeys", decode: { try PairingKeys(decoding: $0) }, encode: { $0.encoded() })
    if let text = bytes.utf8Text, let code = try? PairingCode(parsing: text) {
        require((try? PairingCode(parsing: code.text)) == code, "a pairing code's text reads back as another code")
        require((try? PairingCode(parsing: code.qrText)) == code, "a pairing code's QR text reads back as another code")
    }
    let channel = Fixtures.pairing
    require((try? channel.openKeys(bytes)) == nil, "a keys box opened under a key the fuzzer does not know")
    let index = UInt32(bytes.first ?? 0)
    require((try? channel.openChunk(bytes, index: index, last: index & 1 == 1)) == nil, "a history chunk opened under a key the fuzzer does not know")
}

private func verificationQR(_ bytes: [UInt8]) {
    requireCanonical(bytes, "VerificationPayload", decode: { try VerificationPayload(decoding: $0) }, encode: { $0.encoded() })
    if let payload = try? VerificationPayload(scanned: bytes) {
        require(Array(payload.qrText.utf8) == bytes, "scanned QR bytes decode but re-encode to other text")
    }
}

private func appleECIES(_ bytes: [UInt8]) {
    for variant in AppleECIES.Variant.allCases {
        require((try? AppleECIES.open(bytes, using: Fixtures.p256, variant: variant)) == nil,
                "an ECIES blob opened under a key the fuzzer does not know")
    }
    _ = try? P256KeyImport.privateKey(from: bytes)
    _ = try? P256KeyImport.publicKey(from: bytes)
}
