/// A point on edwards25519, −x² + y² = 1 + d·x²·y², in extended coordinates.
///
/// (X : Y : Z : T) stands for the affine point (X/Z, Y/Z) with T = X·Y/Z
/// (Hisil–Wong–Carter–Dawson 2008), which gives inversion-free addition and doubling.
///
/// **Variable time**, like `FieldElement25519`: it exists only to validate and
/// convert *public* keys, so decoding and scalar multiplication branch freely.
struct EdwardsPoint: Sendable {
    private var x, y, z, t: FieldElement25519

    /// Why 32 bytes are not the encoding of a curve point (RFC 8032 §5.1.3).
    enum DecodingError: Error, Equatable {
        /// y ≥ p: the RFC requires decoding to fail.
        case nonCanonicalY
        /// No x satisfies the curve equation for this y (x² is not a square).
        case notOnCurve
    }

    /// The neutral element (0, 1).
    static let identity = EdwardsPoint(
        x: .zero, y: .one, z: .one, t: .zero)

    private init(x: FieldElement25519, y: FieldElement25519, z: FieldElement25519, t: FieldElement25519) {
        (self.x, self.y, self.z, self.t) = (x, y, z, t)
    }

    /// Decodes a 32-byte point encoding per RFC 8032 §5.1.3.
    ///
    /// The sign bit on x = 0 is *not* rejected here (RFC 8032 says to; libsodium
    /// does not): the only points with x = 0 are (0, ±1), which callers reject as
    /// small-order before decoding. Keeping libsodium's behaviour avoids a rule
    /// that could never fire.
    init(decoding bytes: [UInt8]) throws(DecodingError) {
        precondition(bytes.count == 32, "point encodings are 32 bytes")
        guard FieldElement25519.isCanonicalEncoding(bytes) else { throw .nonCanonicalY }
        let y = FieldElement25519(littleEndian: bytes)
        let wantNegativeX = bytes[31] >> 7 == 1

        // x² = u/v with u = y² − 1, v = d·y² + 1.
        let ySquared = y.squared
        let u = ySquared - .one
        let v = FieldElement25519.edwardsD * ySquared + .one

        // Candidate root x = u·v³·(u·v⁷)^((p−5)/8) avoids a separate inversion.
        let v3 = v.squared * v
        let v7 = v3.squared * v
        var x = u * v3 * (u * v7).powPMinus5Over8

        let vxx = v * x.squared
        if vxx == u {
            // x is already a root of u/v.
        } else if vxx == -u {
            // x² = −u/v, so (x·√−1)² = u/v.
            x = x * .sqrtMinusOne
        } else {
            throw .notOnCurve
        }
        if x.isNegative != wantNegativeX {
            x = -x
        }
        self.init(x: x, y: y, z: .one, t: x * y)
    }

    /// Whether this is the neutral element (0, 1): X = 0 and Y = Z.
    var isIdentity: Bool {
        x.isZero && (y - z).isZero
    }

    /// Point addition (add-2008-hwcd-3 for a = −1; complete on edwards25519).
    static func + (p: EdwardsPoint, q: EdwardsPoint) -> EdwardsPoint {
        let a = (p.y - p.x) * (q.y - q.x)
        let b = (p.y + p.x) * (q.y + q.x)
        let c = p.t * FieldElement25519.edwardsD2 * q.t
        let zz = p.z * q.z
        let d = zz + zz
        let e = b - a, f = d - c, g = d + c, h = b + a
        return EdwardsPoint(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    /// Additive inverse: (x, y) ↦ (−x, y).
    static prefix func - (p: EdwardsPoint) -> EdwardsPoint {
        EdwardsPoint(x: -p.x, y: p.y, z: p.z, t: -p.t)
    }

    /// Point doubling (dbl-2008-hwcd for a = −1).
    ///
    /// The doubling formula never reads T, so when the next step is another
    /// doubling, `computingT: false` skips one field multiplication; the result's
    /// T is then garbage and must not reach `+`.
    func doubled(computingT: Bool = true) -> EdwardsPoint {
        let a = x.squared
        let b = y.squared
        let zz = z.squared
        let c = zz + zz
        let e = (x + y).squared - a - b
        let g = b - a          // a·A + B with a = −1
        let f = g - c
        let h = -(a + b)       // a·A − B
        return EdwardsPoint(x: e * f, y: g * h, z: f * g, t: computingT ? e * h : .zero)
    }

    /// [k]·self for a scalar given as little-endian 64-bit words (vartime).
    ///
    /// Left-to-right with a width-5 signed window (wNAF): about one addition per
    /// six bits instead of one per set bit, which matters because this runs on
    /// every peer key we convert.
    func multiplied(byLittleEndianWords words: [UInt64]) -> EdwardsPoint {
        multiplied(byWNAF: Self.wNAF(words, width: 5))
    }

    /// [k]·self for k given by its width-5 wNAF digits (see `wNAF(_:width:)`).
    private func multiplied(byWNAF digits: [Int8]) -> EdwardsPoint {
        // Odd multiples P, 3P, 5P, …, 15P.
        let twice = doubled()
        var table = [self]
        for _ in 1..<8 { table.append(table[table.count - 1] + twice) }

        var result = EdwardsPoint.identity
        var started = false
        for index in digits.indices.reversed() {
            let digit = digits[index]
            // T is needed only by an addition right after, or by the caller at the end.
            if started { result = result.doubled(computingT: digit != 0 || index == 0) }
            if digit != 0 {
                let multiple = table[Int(digit.magnitude) / 2]
                let term = digit > 0 ? multiple : -multiple
                result = started ? result + term : term
                started = true
            }
        }
        return result
    }

    /// The width-`width` non-adjacent form of a little-endian multiword scalar.
    ///
    /// Digits are odd values in (−2^(width−1), 2^(width−1)) or zero, least
    /// significant first, with at least `width − 1` zeros after each non-zero digit.
    static func wNAF(_ words: [UInt64], width: Int) -> [Int8] {
        precondition((2...7).contains(width), "window width must fit an Int8 digit")
        // One spare word absorbs the carry from rounding a digit up.
        var k = words + [0]
        let windowMask = UInt64(1) << UInt64(width) - 1
        var digits: [Int8] = []
        digits.reserveCapacity(64 * words.count + 1)
        while k.contains(where: { $0 != 0 }) {
            var digit: Int64 = 0
            if k[0] & 1 == 1 {
                digit = Int64(k[0] & windowMask)
                if digit >= Int64(1) << Int64(width - 1) { digit -= Int64(1) << Int64(width) }
                // k −= digit: subtract a small positive or add a small positive, with carry.
                if digit > 0 {
                    var borrow = UInt64(digit)
                    for i in k.indices where borrow != 0 {
                        let (value, overflow) = k[i].subtractingReportingOverflow(borrow)
                        k[i] = value
                        borrow = overflow ? 1 : 0
                    }
                } else {
                    var carry = UInt64(-digit)
                    for i in k.indices where carry != 0 {
                        let (value, overflow) = k[i].addingReportingOverflow(carry)
                        k[i] = value
                        carry = overflow ? 1 : 0
                    }
                }
            }
            digits.append(Int8(digit))
            // k >>= 1 across words.
            for i in k.indices {
                let next = i + 1 < k.count ? k[i + 1] : 0
                k[i] = (k[i] >> 1) | (next << 63)
            }
        }
        return digits
    }

    /// The prime order of the main subgroup, L = 2^252 + 27742317777372353535851937790883648493.
    static let groupOrderWords: [UInt64] = [
        0x5812_631A_5CF5_D3ED, 0x14DE_F9DE_A2F7_9CD6, 0x0000_0000_0000_0000, 0x1000_0000_0000_0000,
    ]

    /// L's wNAF digits, computed once rather than on every key.
    private static let groupOrderWNAF = wNAF(groupOrderWords, width: 5)

    /// Whether [L]·self is the identity, i.e. the point lies in the prime-order subgroup.
    var isInPrimeOrderSubgroup: Bool {
        multiplied(byWNAF: Self.groupOrderWNAF).isIdentity
    }
}
