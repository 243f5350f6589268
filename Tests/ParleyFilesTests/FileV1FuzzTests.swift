import Crypto
import Foundation
@testable import ParleyCrypto
@testable import ParleyFiles
import Testing

@Suite("Parley file v1 fuzzing")
struct FileV1FuzzTests {
    /// A small deterministic generator so a failing mutation can be replayed from its iteration number.
    struct Mutator {
        let random: DeterministicRandomSource
        func next(_ bound: Int) -> Int {
            let bytes = random.bytes(4)
            return Int(bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % UInt32(bound))
        }
    }

    @Test("random mutations of a valid file always give an error, never a crash or wrong output")
    func mutations() throws {
        let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 7, count: 32))
        let plaintext = DeterministicRandomSource(seed: Array("fuzz".utf8)).bytes(FileFormatV1.chunkSize + 300)
        let output = MemoryOutput()
        try FileSealer.seal(
            from: MemoryInput(plaintext), to: output,
            recipients: [.x25519(key.publicKey), .p256(P256.KeyAgreement.PrivateKey().publicKey)],
            random: DeterministicRandomSource(seed: Array("fuzz-file".utf8)))
        let original = output.bytes
        let mutator = Mutator(random: DeterministicRandomSource(seed: Array("mutations".utf8)))
        let headerLength = try FileOpener.readHeader(from: MemoryInput(original)).encoded.count
        var outcomes: [String: Int] = [:]
        for iteration in 0..<1500 {
            var bytes = original
            // Half the mutations hit the header, where parsing is most intricate.
            for _ in 0...mutator.next(3) {
                let region = iteration % 2 == 0 ? min(headerLength, bytes.count) : bytes.count
                switch mutator.next(6) {
                case 0: bytes[mutator.next(region)] ^= UInt8(1 << mutator.next(8))
                case 1: bytes[mutator.next(region)] = UInt8(mutator.next(256))
                case 2: bytes.insert(UInt8(mutator.next(256)), at: mutator.next(region))
                case 3: bytes.remove(at: mutator.next(region))
                case 4: bytes = Array(bytes.prefix(mutator.next(bytes.count)))
                default:
                    let at = mutator.next(region)
                    bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + mutator.next(64) + 1)], at: at)
                }
                if bytes.isEmpty { break }
            }
            if bytes == original { continue }
            do {
                let opened = try openEncrypted(bytes, with: [.x25519(key)])
                Issue.record("iteration \(iteration): a mutated file opened (\(opened == plaintext ? "same" : "DIFFERENT") plaintext)")
            } catch let error as FileError {
                let category = ["decrypt", "malformed", "unsupported", "notParley", "noMatchingKind"].first { matches(error, $0) }
                outcomes[category ?? "other", default: 0] += 1
            }
        }
        // Each kind of refusal should be exercised, or the fuzzer is not reaching the parser.
        #expect(outcomes["decrypt", default: 0] > 0)
        #expect(outcomes["malformed", default: 0] > 0)
        #expect(outcomes["unsupported", default: 0] > 0)
        #expect(outcomes["other"] == nil)
    }
}
