import Foundation
import ParleyQR
import Testing

@Suite("ParleyQR: garbage, truncated, huge and empty images")
struct QRHostileInputTests {
    func goodPNG() throws -> [UInt8] { try QRMatrix.encode(Array("parley".utf8)).png() }

    @Test func garbageIsNotAPNG() {
        #expect(throws: QRError.notAPNG("it does not start with the PNG signature")) { try QRScanner.decode(png: []) }
        #expect(throws: QRError.notAPNG("it does not start with the PNG signature")) {
            try QRScanner.decode(png: Array("definitely not an image".utf8))
        }
        var random = SystemRandomNumberGenerator()
        let noise = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
        #expect(throws: QRError.self) { try QRScanner.decode(png: noise) }
    }

    @Test func everyTruncationIsAClearError() throws {
        let png = try goodPNG()
        // Every cut short of the end: never a crash, always a "not a readable PNG" error.
        for length in stride(from: 0, to: png.count - 12, by: 7) {
            do {
                _ = try GrayImage(png: Array(png.prefix(length)))
                Issue.record("a PNG cut to \(length) of \(png.count) bytes was read")
            } catch {
                guard case .notAPNG = error else { Issue.record("\(error)"); continue }
            }
        }
    }

    @Test func aFlippedByteIsCaughtByTheChecksums() throws {
        var png = try goodPNG()
        png[png.count / 2] ^= 0xFF
        #expect(throws: QRError.self) { try QRScanner.decode(png: png) }
    }

    @Test func aHugeDeclaredImageIsRefusedBeforeAllocating() throws {
        // A valid header claiming 100,000 × 100,000 pixels (10 GB of gray) and no data.
        var png = try goodPNG()
        let ihdrWidth = 16
        for (offset, value) in [(ihdrWidth, UInt32(100_000)), (ihdrWidth + 4, UInt32(100_000))] {
            withUnsafeBytes(of: value.bigEndian) { for (i, byte) in $0.enumerated() { png[offset + i] = byte } }
        }
        // Fix the IHDR chunk's CRC so libpng reads the header and the size check is what refuses it.
        let crc = CRC32.checksum(png[12..<29])
        withUnsafeBytes(of: crc.bigEndian) { for (i, byte) in $0.enumerated() { png[29 + i] = byte } }
        #expect(throws: QRError.tooLarge("100000×100000 pixels; at most 8192 on a side")) { try GrayImage(png: png) }
    }

    @Test func anOversizeFileIsRefusedUnread() {
        let big = [UInt8](repeating: 0, count: GrayImage.maximumFileSize + 1)
        #expect(throws: QRError.tooLarge("\(big.count) bytes; at most \(GrayImage.maximumFileSize)")) { try GrayImage(png: big) }
    }

    @Test func aPNGWithoutACodeSaysSo() throws {
        let blank = try GrayImage(width: 200, height: 200, pixels: [UInt8](repeating: 255, count: 40_000)).png()
        #expect(throws: QRError.noQRCode) { try QRScanner.decode(png: blank) }
        var stripes = [UInt8](repeating: 255, count: 40_000)
        for index in stripes.indices where (index % 200) / 10 % 2 == 0 { stripes[index] = 0 }
        #expect(throws: QRError.noQRCode) { try QRScanner.decode(GrayImage(width: 200, height: 200, pixels: stripes)) }
    }

    @Test func errorsSayWhatToDo() {
        #expect(QRError.noQRCode.description.contains("make sure the whole code is visible"))
        #expect(QRError.notAPNG("x").description.contains("export the code as PNG"))
    }
}

/// The PNG chunk checksum (CRC-32, ISO 3309), to forge a header in a test.
enum CRC32 {
    static func checksum<C: Collection<UInt8>>(_ bytes: C) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
