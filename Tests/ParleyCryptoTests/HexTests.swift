import Foundation
import ParleyCrypto
import Testing

@Suite("Hex")
struct HexTests {
    @Test("two digits a byte, lower or upper case, leading zeros kept")
    func digits() {
        #expect(Hex.lower([0x00, 0x1F, 0xA0, 0xFF]) == "001fa0ff")
        #expect(Hex.upper([0x00, 0x1F, 0xA0, 0xFF]) == "001FA0FF")
        #expect(Hex.lower([]) == "" && Hex.upper([UInt8]()) == "")
        #expect(Hex.lower([0x0A][...]) == "0a", "any sequence of bytes: a slice")
    }

    @Test("agrees with String(format:) on every byte value")
    func everyByte() {
        let all = (0...255).map(UInt8.init)
        #expect(Hex.lower(all) == all.map { String(format: "%02x", $0) }.joined())
        #expect(Hex.upper(all) == all.map { String(format: "%02X", $0) }.joined())
    }
}
