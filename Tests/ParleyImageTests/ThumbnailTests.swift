import Foundation
import ParleyImage
import Testing

/// JPEG/PNG decoding and thumbnails against fixtures made by Pillow (scripts/vectors/parley_image_fixtures.py).
@Suite("Images: decoding and thumbnails")
struct ThumbnailTests {
    struct Manifest: Decodable {
        struct Entry: Decodable { let file: String, width: Int?, height: Int?, error: String? }
        let images: [Entry]
    }

    @Test func validFixturesDecodeWithTheirSizeAndMakeSmallDecodableThumbnails() throws {
        let manifest = try Vectors.load("images", as: Manifest.self)
        for entry in manifest.images where entry.error == nil {
            let bytes = try Vectors.bytes(entry.file)
            let full = try ImageCodec.decode(bytes)
            #expect(full.width == entry.width && full.height == entry.height, "\(entry.file)")
            #expect(full.image.width == entry.width && full.image.height == entry.height, "\(entry.file): decoded unscaled")

            let thumbnail = try Thumbnail.make(from: bytes, maxSide: 160)
            #expect(thumbnail.sourceWidth == entry.width && thumbnail.sourceHeight == entry.height, "\(entry.file)")
            #expect(max(thumbnail.width, thumbnail.height) <= 160, "\(entry.file)")
            #expect(ImageCodec.format(of: thumbnail.jpeg) == .jpeg)
            // The thumbnail is a real JPEG: decoding it gives back its own size and keeps the aspect ratio.
            let reread = try ImageCodec.decode(thumbnail.jpeg)
            #expect(reread.width == thumbnail.width && reread.height == thumbnail.height, "\(entry.file)")
            let aspect = Double(entry.width!) / Double(entry.height!), thumbAspect = Double(thumbnail.width) / Double(thumbnail.height)
            #expect(abs(aspect - thumbAspect) / aspect < 0.05, "\(entry.file): aspect \(aspect) became \(thumbAspect)")
        }
    }

    @Test func hostileFixturesAreRefusedWithTheNamedError() throws {
        let manifest = try Vectors.load("images", as: Manifest.self)
        let hostile = manifest.images.filter { $0.error != nil }
        #expect(hostile.count >= 8)
        for entry in hostile {
            let bytes = try Vectors.bytes(entry.file)
            do {
                _ = try Thumbnail.make(from: bytes)
                Issue.record("\(entry.file) was accepted")
            } catch {
                switch (entry.error, error) {
                case ("invalid", .invalid), ("unsupportedFormat", .unsupportedFormat), ("tooLarge", .tooLarge): break
                default: Issue.record("\(entry.file): expected \(entry.error!), got \(error)")
                }
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test func largeJPEGsAreScaledWhileDecoding() throws {
        let bytes = try Vectors.bytes("progressive.jpg")   // 1200 × 300
        let decoded = try ImageCodec.decode(bytes, minimumSide: 160)
        // 1/4 keeps the longest side (300) at least 160; 1/8 (150) would not.
        #expect(decoded.image.width == 300 && decoded.image.height == 75)
        #expect(decoded.width == 1200)
    }

    @Test func everyTruncationAndRandomGarbageFailsCleanly() throws {
        for file in ["photo.jpg", "alpha.png"] {
            let bytes = try Vectors.bytes(file)
            for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
                #expect(throws: ImageError.self, "\(file) cut at \(length)") { try ImageCodec.decode(Array(bytes.prefix(length))) }
            }
        }
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let noise = (0..<(length * 13)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? ImageCodec.decode([0xFF, 0xD8, 0xFF] + noise)
            _ = try? ImageCodec.decode([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + noise)
        }
    }

    @Test func shrinkingAveragesAndKeepsAtLeastOnePixel() throws {
        let red = try #require(RGBImage(width: 4, height: 2, pixels: [UInt8](repeating: 0, count: 24).enumerated().map { $0.offset % 3 == 0 ? 200 : 0 }))
        let small = red.shrunk(toFit: 2)
        #expect(small.width == 2 && small.height == 1)
        #expect(small.pixels == [200, 0, 0, 200, 0, 0])
        let line = try #require(RGBImage(width: 1000, height: 1, pixels: [UInt8](repeating: 9, count: 3000)))
        #expect(line.shrunk(toFit: 10).height == 1)
        #expect(RGBImage(width: 2, height: 2, pixels: [1, 2, 3]) == nil)
        #expect(red.shrunk(toFit: 100) == red)
    }

    @Test func encodeRoundTripsItsOwnPixelsClosely() throws {
        var pixels: [UInt8] = []
        for i in 0..<(64 * 32) { pixels += [UInt8(i % 64 * 4), UInt8(i / 64 * 8), 100] }
        let image = try #require(RGBImage(width: 64, height: 32, pixels: pixels))
        let decoded = try ImageCodec.decode(try ImageCodec.encodeJPEG(image, quality: 95)).image
        #expect(decoded.width == 64 && decoded.height == 32)
        let error = zip(decoded.pixels, pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(error < 24, "JPEG at quality 95 drifted by \(error)")
    }
}
