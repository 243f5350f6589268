import Foundation
import ParleyQR
import Testing

@Suite("ParleyQR: libqrencode → PNG → zbar")
struct QRRoundTripTests {
    let text = Array("parley-verify:AQ9hbm5AZXhhbXBsZS5vcmcAAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHw".utf8)

    @Test func aGeneratedPNGDecodesToTheSameBytes() throws {
        let png = try QRMatrix.encode(text).png()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try QRScanner.decode(png: png) == [text])
    }

    @Test func binaryBytesSurviveUnchanged() throws {
        // zbar would guess a text encoding for these; the scanner asks for the raw bytes.
        let binary: [UInt8] = [0x01, 0x00, 0xFF, 0x80, 0xC3, 0x28, 0x0A] + Array(0..<64)
        #expect(try QRScanner.decode(png: QRMatrix.encode(binary).png(scale: 4)) == [binary])
    }

    @Test func theMatrixHasAQRCodesShape() throws {
        let matrix = try QRMatrix.encode(Array("hello".utf8))
        #expect(matrix.size == 21)   // five bytes fit in version 1
        // Finder pattern corners: a dark 7×7 ring with a dark 3×3 centre, at three corners.
        for (ox, oy) in [(0, 0), (14, 0), (0, 14)] {
            #expect(matrix[x: ox, y: oy] && matrix[x: ox + 6, y: oy + 6] && matrix[x: ox + 3, y: oy + 3])
            #expect(!matrix[x: ox + 1, y: oy + 1])
        }
        #expect(!matrix[x: -1, y: 0] && !matrix[x: 21, y: 3])   // the quiet zone is light
    }

    @Test func theTerminalDrawingHoldsEveryModule() throws {
        let matrix = try QRMatrix.encode(text)
        let lines = matrix.terminalText(margin: 2).split(separator: "\n").map(Array.init)
        #expect(lines.count == (matrix.size + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == matrix.size + 4 })
        // Read the half blocks back into modules: a drawn half is light.
        for (row, line) in lines.enumerated() {
            for (column, character) in line.enumerated() {
                let (upperLight, lowerLight): (Bool, Bool) = switch character {
                case "█": (true, true)
                case "▀": (true, false)
                case "▄": (false, true)
                default: (false, false)
                }
                let x = column - 2, y = row * 2 - 2
                #expect(upperLight == !matrix[x: x, y: y], "module \(x),\(y)")
                if y + 1 < matrix.size + 2 { #expect(lowerLight == !matrix[x: x, y: y + 1], "module \(x),\(y + 1)") }
            }
        }
    }

    @Test func aSmallScaleAndWideMarginStillDecode() throws {
        let png = try QRMatrix.encode(text).png(scale: 3, margin: 10)
        let image = try GrayImage(png: png)
        #expect(image.width == image.height)
        #expect(Set(image.pixels) == [0, 255])
        #expect(try QRScanner.decode(image) == [text])
    }

    @Test func nothingToEncodeOrTooMuchIsRefused() {
        #expect(throws: QRError.cannotEncode("there is nothing to encode")) { try QRMatrix.encode([]) }
        #expect(throws: QRError.self) { try QRMatrix.encode([UInt8](repeating: 0x41, count: 3_000)) }
    }
}
