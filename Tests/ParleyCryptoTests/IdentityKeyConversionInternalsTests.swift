@testable import ParleyCrypto
import Testing

/// Algebraic checks on the field and point code under IdentityKeyConversion,
/// so a fault shows up here, close to its cause, rather than only as a wrong vector.
@Suite("IdentityKeyConversion internals")
struct IdentityKeyConversionInternalsTests {
    private static func randomElement() -> FieldElement25519 {
        var generator = SystemRandomNumberGenerator()
        return FieldElement25519(littleEndian: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The Ed25519 base point B, y = 4/5.
    private static let basePoint: EdwardsPoint = {
        var encoding = [UInt8](repeating: 0x66, count: 32)
        encoding[0] = 0x58
        return try! EdwardsPoint(decoding: encoding)
    }()

    @Test("field constants satisfy their definitions")
    func constants() {
        let i = FieldElement25519.sqrtMinusOne
        #expect(i.squared == -FieldElement25519.one)
        // d = −121665/121666  ⇔  d·121666 + 121665 = 0.
        let c121666 = FieldElement25519(littleEndian: [0x42, 0xDB, 0x01] + [UInt8](repeating: 0, count: 29))
        let c121665 = FieldElement25519(littleEndian: [0x41, 0xDB, 0x01] + [UInt8](repeating: 0, count: 29))
        #expect((FieldElement25519.edwardsD * c121666 + c121665).isZero)
    }

    @Test("inversion, subtraction and encoding are consistent")
    func fieldArithmetic() {
        for _ in 0..<64 {
            let a = Self.randomElement(), b = Self.randomElement()
            #expect(a * a.inverted == .one || a.isZero)
            #expect((a - b) + b == a)
            #expect(a.squared == a * a)
            #expect(FieldElement25519(littleEndian: a.canonicalBytes) == a)
            #expect(FieldElement25519.isCanonicalEncoding(a.canonicalBytes))
        }
        // p itself encodes zero but is not canonical; p − 1 is canonical.
        let p: [UInt8] = [0xED] + [UInt8](repeating: 0xFF, count: 30) + [0x7F]
        #expect(!FieldElement25519.isCanonicalEncoding(p))
        #expect(FieldElement25519(littleEndian: p).isZero)
        var pMinusOne = p
        pMinusOne[0] = 0xEC
        #expect(FieldElement25519.isCanonicalEncoding(pMinusOne))
    }

    @Test("wNAF digits rebuild the scalar and keep their shape")
    func wNAFDigits() {
        var generator = SystemRandomNumberGenerator()
        let scalars = [EdwardsPoint.groupOrderWords, [UInt64.max, .max, .max, .max], [1, 0, 0, 0]]
            + (0..<32).map { _ in (0..<4).map { _ in UInt64.random(in: .min ... .max, using: &generator) } }
        for words in scalars {
            let digits = EdwardsPoint.wNAF(words, width: 5)
            // Rebuild Σ dᵢ·2ⁱ as a signed multiword value with one extra word.
            var value = [UInt64](repeating: 0, count: 5)
            for (position, digit) in digits.enumerated() where digit != 0 {
                let word = position / 64, shift = UInt64(position % 64)
                var addend = [UInt64](repeating: 0, count: 6)
                let magnitude = UInt64(digit.magnitude)
                addend[word] = magnitude << shift
                if shift != 0 { addend[word + 1] = magnitude >> (64 - shift) }
                var carry: UInt64 = 0
                for index in 0..<5 {
                    if digit > 0 {
                        let (s1, o1) = value[index].addingReportingOverflow(addend[index])
                        let (s2, o2) = s1.addingReportingOverflow(carry)
                        value[index] = s2
                        carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
                    } else {
                        let (s1, o1) = value[index].subtractingReportingOverflow(addend[index])
                        let (s2, o2) = s1.subtractingReportingOverflow(carry)
                        value[index] = s2
                        carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
                    }
                }
            }
            #expect(value == words + [0])
            for (position, digit) in digits.enumerated() where digit != 0 {
                #expect(digit % 2 != 0 && abs(Int(digit)) < 16)
                #expect(digits[(position + 1)..<min(position + 5, digits.count)].allSatisfy { $0 == 0 })
            }
        }
    }

    @Test("scalar multiplication matches repeated addition and kills the base point at L")
    func scalarMultiplication() {
        let b = Self.basePoint
        var sum = EdwardsPoint.identity
        for k in 0..<40 {
            let product = b.multiplied(byLittleEndianWords: [UInt64(k), 0, 0, 0])
            #expect((product + -sum).isIdentity, "k = \(k)")
            sum = sum + b
        }
        #expect(b.isInPrimeOrderSubgroup)
        #expect(!b.isIdentity)
        var lPlusOne = EdwardsPoint.groupOrderWords
        lPlusOne[0] += 1
        #expect((b.multiplied(byLittleEndianWords: lPlusOne) + -b).isIdentity)
    }
}
