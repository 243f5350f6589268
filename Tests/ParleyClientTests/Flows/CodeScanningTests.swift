import Foundation
import ParleyClient
import ParleyCrypto
import Testing

@Suite("Flows: codes read from pictures")
struct CodeScanningTests {
    @Test("the first pairing code among the scanned texts is found, in any case; garbage is not a code")
    func pairingCodes() {
        let code = Array("parley-pair:4V2K-J8QZ".utf8)
        #expect(PairingFlow.code(inScanned: [code]) == "parley-pair:4V2K-J8QZ")
        #expect(PairingFlow.code(inScanned: [Array("https://example.org".utf8), Array("PARLEY-PAIR:AAAA".utf8), code]) == "PARLEY-PAIR:AAAA")
        #expect(PairingFlow.code(inScanned: []) == nil)
        #expect(PairingFlow.code(inScanned: [[0xFF, 0xFE, 0x00], Array("parley-pai".utf8), Array(" parley-pair:x".utf8)]) == nil)
        #expect(PairingFlow.code(inScanned: [[UInt8](repeating: 0x41, count: 1 << 20)]) == nil)
    }

    @Test("a verification code is picked out of other codes; truncated, garbage or control characters are not one")
    func verificationCodes() throws {
        let payload = try VerificationPayload(accountID: "42", identityKey: [UInt8](repeating: 7, count: 32))
        let good = Array(payload.qrText.utf8)
        #expect(VerificationFlow.verificationCode(inScanned: [Array("parley-pair:AAAA".utf8), good]) == good)
        #expect(VerificationFlow.verificationCode(inScanned: [Array(good.dropLast(5))]) == nil)
        #expect(VerificationFlow.verificationCode(inScanned: [[0xC3, 0x28], [], Array("parley-verify:".utf8)]) == nil)
        #expect(VerificationFlow.verificationCode(inScanned: [Array((payload.qrText + "\u{1B}[2J").utf8)]) == nil)
        #expect(VerificationFlow.verificationCode(inScanned: [Array(("parley-verify:" + String(repeating: "A", count: 100_000)).utf8)]) == nil)
    }
}
