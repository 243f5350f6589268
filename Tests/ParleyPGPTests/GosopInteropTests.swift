import Foundation
import ParleyTestSupport
import Testing
@testable import ParleyPGP

/// Peer → Parley with gosop (GopenPGP, Proton's Go implementation): its messages and signatures
/// decrypt and verify in Parley, whole and streamed; altered and cut ones are refused with the right error.
@Suite(.serialized) struct GosopInteropTests {
    static let message = Array("gosop to Parley\nsecond line\n".utf8) + (0..<70000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    @Test func gosopMessagesDecryptAndVerify() async throws {
        try await Blocking.run {
            let scratch = try PeerScratch()
            let input = Self.message
            for (name, key) in try PeerKeys.make(protected: false) {
                let keyFile = try scratch.file("\(name).key", Array(key.armored.utf8))
                let certFile = try scratch.file("\(name).cert", Array(key.publicCertificate.armored.utf8))
                let decryptor = PeerKeys.decryptor(key)
                for armor in [[], ["--no-armor"]] {
                    let encrypted = try scratch.run(["gosop", "encrypt"] + armor + [certFile], input: input)
                    #expect(Armor.isArmored(encrypted) == armor.isEmpty)
                    #expect(try PeerKeys.bothWays(encrypted, decryptor).0 == input, "\(name) \(armor)")

                    let signed = try scratch.run(["gosop", "encrypt"] + armor + ["--sign-with=\(keyFile)", certFile], input: input)
                    let (plain, verifications) = try PeerKeys.bothWays(signed, decryptor)
                    #expect(plain == input)
                    #expect(verifications.map(\.isGood) == [true], "\(name) signed+encrypted")

                    let signature = try scratch.run(["gosop", "sign"] + armor + [keyFile], input: input)
                    let detached = try Verification.detached(signature, data: input, certificates: [key.publicCertificate], now: PeerKeys.later)
                    #expect(detached.map(\.isGood) == [true], "\(name) detached")
                    let streamed = try Verification.detached(signature, input: PGPMemoryInput(input), certificates: [key.publicCertificate], now: PeerKeys.later)
                    #expect(streamed.map(\.isGood) == [true])
                    var altered = input
                    altered[5] ^= 1
                    #expect(try Verification.detached(signature, data: altered, certificates: [key.publicCertificate], now: PeerKeys.later).map(\.isGood) == [false])
                }
                // Altered and cut messages.
                let binary = try scratch.run(["gosop", "encrypt", "--no-armor", certFile], input: input)
                #expect(throws: PGPError.badMDC) { try decryptor.decrypt(PeerKeys.tampered(binary)) }
                #expect(throws: PGPError.badMDC) { try decryptor.decrypt(from: PGPMemoryInput(PeerKeys.tampered(binary)), to: PGPMemoryOutput()) }
                #expect(throws: PGPError.truncated) { try decryptor.decrypt(Array(binary.dropLast(7))) }
                #expect(throws: PGPError.truncated) { try decryptor.decrypt(from: PGPMemoryInput(Array(binary.dropLast(7))), to: PGPMemoryOutput()) }
            }
        }
    }

    @Test func gosopPasswordMessages() async throws {
        try await Blocking.run {
            let scratch = try PeerScratch()
            var decryptor = Decryptor(now: PeerKeys.later)
            decryptor.passwords = [Array("gosop password 42".utf8)]
            // SOP takes passwords as files.
            let passwordFile = try scratch.file("password", Array("gosop password 42".utf8))
            let text = Array(String(repeating: "gosop password line\nsecond line ✓\n", count: 3000).utf8)
            for armor in [[], ["--no-armor"]] {
                let encrypted = try scratch.run(["gosop", "encrypt"] + armor + ["--with-password=\(passwordFile)"], input: text)
                // This gosop (0.0.0, GopenPGP 2.5) writes password messages as text literal data with
                // CRLF line endings (gpg reads the same bytes), so the reference is the text with CRLF.
                let (plain, _) = try PeerKeys.bothWays(encrypted, decryptor)
                #expect(plain == Signature.canonicalText(text))
                #expect(try decryptor.decrypt(encrypted).literal.format == 0x74)
                var wrong = decryptor
                wrong.passwords = [Array("not it".utf8)]
                #expect(throws: PGPError.noMatchingKey) { try wrong.decrypt(encrypted) }
                #expect(throws: PGPError.noMatchingKey) { try wrong.decrypt(from: PGPMemoryInput(encrypted), to: PGPMemoryOutput()) }
            }
        }
    }
}
