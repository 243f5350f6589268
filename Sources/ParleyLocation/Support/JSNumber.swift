/// Formats doubles exactly as JavaScript's `Number.prototype.toString()` does.
///
/// Berry Picker Tracker encrypts the decimal text of each coordinate, so the bytes under the
/// cipher are whatever JavaScript printed; to produce the same ciphertexts we must print the same
/// text. Both Swift's `description` and ECMAScript choose the shortest digit string that round-trips
/// (and the closest one on ties), so only the layout differs: where the decimal point goes and
/// when JavaScript switches to exponent form (n ≥ 22 or n ≤ −6, ECMA-262 §6.1.6.1.20).
public enum JSNumber {
    /// The text `Number(value).toString()` gives in JavaScript.
    public static func string(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return "0" }  // also −0, as in JavaScript
        let (digits, n) = shortestDigits(value.magnitude)
        return (value < 0 ? "-" : "") + layout(digits: digits, n: n)
    }

    /// Shortest round-trip digits `s` (no leading or trailing zeros) and `n` with value = 0.s × 10^n.
    static func shortestDigits(_ value: Double) -> (digits: [UInt8], n: Int) {
        // Swift prints forms such as "24.962535", "1e-07", "1.5e+21", "5e-324".
        let text = value.description.utf8
        var mantissa: [UInt8] = []
        var pointPosition: Int?
        var exponent = 0
        var iterator = text.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: ".") {
                pointPosition = mantissa.count
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                var rest: [UInt8] = []
                while let more = iterator.next() { rest.append(more) }
                exponent = Int(String(decoding: rest, as: UTF8.self)) ?? 0
                break
            } else {
                mantissa.append(byte - UInt8(ascii: "0"))
            }
        }
        var n = (pointPosition ?? mantissa.count) + exponent
        while let first = mantissa.first, first == 0 {
            mantissa.removeFirst()
            n -= 1
        }
        while let last = mantissa.last, last == 0 { mantissa.removeLast() }
        return (mantissa, n)
    }

    /// ECMAScript's Number::toString layout for a positive value 0.digits × 10^n.
    static func layout(digits: [UInt8], n: Int) -> String {
        let k = digits.count
        let text = String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        if k <= n && n <= 21 {
            return text + String(repeating: "0", count: n - k)
        }
        if 0 < n && n <= 21 {
            let split = text.index(text.startIndex, offsetBy: n)
            return text[..<split] + "." + text[split...]
        }
        if -6 < n && n <= 0 {
            return "0." + String(repeating: "0", count: -n) + text
        }
        let e = n - 1
        let exponent = "e" + (e < 0 ? "-" : "+") + String(e.magnitude)
        if k == 1 { return text + exponent }
        return text.prefix(1) + "." + text.dropFirst() + exponent
    }
}
