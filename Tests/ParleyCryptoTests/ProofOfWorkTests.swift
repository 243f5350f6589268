import ParleyCrypto
import Testing

@Suite("Proof of work")
struct ProofOfWorkTests {
    struct File: Decodable {
        struct Valid: Decodable { let challenge: String, difficulty: Int, nonce: UInt64, leadingZeroBits: Int }
        struct Invalid: Decodable { let challenge: String, difficulty: Int, nonce: UInt64 }
        let valid: [Valid]
        let invalid: [Invalid]
    }

    static let file: File = try! Vectors.load("proof-of-work")

    @Test("the solver finds exactly the smallest nonce the independent generator found")
    func solverMatches() throws {
        for vector in Self.file.valid {
            let challenge = [UInt8](hex: vector.challenge)
            #expect(try ProofOfWork.solve(challenge: challenge, difficulty: vector.difficulty) == vector.nonce)
            #expect(ProofOfWork.verify(challenge: challenge, difficulty: vector.difficulty, nonce: vector.nonce))
        }
    }

    @Test("nonces that fall short are refused")
    func invalid() {
        for vector in Self.file.invalid {
            #expect(!ProofOfWork.verify(challenge: [UInt8](hex: vector.challenge), difficulty: vector.difficulty, nonce: vector.nonce))
        }
    }

    @Test("out-of-range parameters are refused by both sides")
    func parameters() {
        #expect(!ProofOfWork.verify(challenge: [UInt8](), difficulty: 1, nonce: 0))
        #expect(!ProofOfWork.verify(challenge: [1], difficulty: 65, nonce: 0))
        #expect(!ProofOfWork.verify(challenge: [UInt8](repeating: 0, count: 257), difficulty: 0, nonce: 0))
        #expect(throws: ProofOfWork.Error.invalidParameters) { try ProofOfWork.solve(challenge: [1], difficulty: -1) }
        #expect(throws: ProofOfWork.Error.budgetExhausted) {
            try ProofOfWork.solve(challenge: [1, 2, 3], difficulty: 40, maximumAttempts: 100)
        }
    }

    @Test("leading zero bits are counted across byte boundaries")
    func counting() {
        #expect(ProofOfWork.leadingZeroBits(of: [0x00, 0x00, 0x0F]) == 20)
        #expect(ProofOfWork.leadingZeroBits(of: [0x80]) == 0)
        #expect(ProofOfWork.leadingZeroBits(of: [0x00, 0x00]) == 16)
    }
}
