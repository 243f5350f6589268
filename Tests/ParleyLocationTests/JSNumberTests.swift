import ParleyLocation
import Testing

@Suite struct JSNumberTests {
    /// The expected texts were printed by node (checked by the generator), not by this code.
    @Test func matchesJavaScript() throws {
        let vectors = try Vectors.load("js-number", as: [JSNumberVector].self)
        #expect(vectors.count >= 20)
        for vector in vectors {
            #expect(JSNumber.string(vector.value) == vector.text, "\(vector.js)")
        }
    }

    @Test func specialValues() {
        #expect(JSNumber.string(.nan) == "NaN")
        #expect(JSNumber.string(.infinity) == "Infinity")
        #expect(JSNumber.string(-.infinity) == "-Infinity")
        #expect(JSNumber.string(-0.0) == "0")
        #expect(JSNumber.string(-1e21) == "-1e+21")
        #expect(JSNumber.string(Double("999999999999999900000")!) == "999999999999999900000")
    }

    @Test func roundTripsEveryPrintedValue() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            #expect(Double(JSNumber.string(value)) == value)
        }
    }
}
