import Crypto
import ParleyCrypto
import Testing

@Suite("Verification QR text and e-mail safety numbers (vectors from scripts/vectors/verification_qr_vectors.py)")
struct VerificationQRTextTests {
    struct File: Decodable {
        struct Valid: Decodable {
            let account_id: String
            let identity_key: String
            let payload: String
            let qr_text: String
            let fingerprint: String
        }
        struct Pair: Decodable {
            let first: Int
            let second: Int
            let safety_number: String
        }
        struct Invalid: Decodable {
            let why: String
            let qr_text: String
        }
        let prefix: String
        let valid: [Valid]
        let safety_numbers: [Pair]
        let invalid: [Invalid]
    }

    let vectors: File
    init() throws { vectors = try Vectors.load("verification-qr") }

    @Test func validTextsEncodeAndDecodeExactly() throws {
        #expect(vectors.prefix == VerificationPayload.qrTextPrefix)
        for vector in vectors.valid {
            let payload = try VerificationPayload(accountID: vector.account_id, identityKey: [UInt8](hex: vector.identity_key))
            #expect(payload.encoded().hex == vector.payload)
            #expect(payload.qrText == vector.qr_text)
            #expect(try VerificationPayload(qrText: vector.qr_text) == payload)
            #expect(try VerificationPayload(scanned: Array(vector.qr_text.utf8)) == payload)
        }
    }

    @Test func fingerprintsOfEd25519KeysWithEmailIDs() throws {
        for vector in vectors.valid {
            let key = try Curve25519.Signing.PublicKey(rawRepresentation: [UInt8](hex: vector.identity_key))
            #expect(try Fingerprint(identityKey: key, id: vector.account_id).digits == vector.fingerprint)
        }
        for pair in vectors.safety_numbers {
            let first = vectors.valid[pair.first], second = vectors.valid[pair.second]
            let number = try SafetyNumber(
                local: (try Curve25519.Signing.PublicKey(rawRepresentation: [UInt8](hex: first.identity_key)), first.account_id),
                remote: (try Curve25519.Signing.PublicKey(rawRepresentation: [UInt8](hex: second.identity_key)), second.account_id))
            #expect(number.digits == pair.safety_number)
        }
    }

    @Test func invalidTextsAreRefused() {
        #expect(vectors.invalid.count >= 10)
        for vector in vectors.invalid {
            #expect(throws: VerificationError.self, "\(vector.why)") { try VerificationPayload(qrText: vector.qr_text) }
        }
    }

    @Test func notTextAtAllIsNotAVerificationCode() {
        #expect(throws: VerificationError.notAVerificationCode) { try VerificationPayload(scanned: [0xFF, 0xFE, 0x00]) }
        #expect(throws: VerificationError.notAVerificationCode) { try VerificationPayload(scanned: []) }
        let huge = Array((VerificationPayload.qrTextPrefix + String(repeating: "A", count: 10_000)).utf8)
        #expect(throws: VerificationError.notAVerificationCode) { try VerificationPayload(scanned: huge) }
    }
}
