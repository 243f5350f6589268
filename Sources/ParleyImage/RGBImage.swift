/// Decoded pixels: 8-bit RGB, rows packed without padding.
public struct RGBImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 3` bytes, row by row, R G B.
    public let pixels: [UInt8]

    /// An image from packed RGB rows; nil when the sizes disagree.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height * 3) == (pixels.count, false) else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The image shrunk so its longest side is at most `maxSide`, by averaging each target pixel's
    /// source area (a box filter: no aliasing when shrinking, which is all a thumbnail does).
    public func shrunk(toFit maxSide: Int) -> RGBImage {
        let longest = max(width, height)
        guard longest > maxSide, maxSide > 0 else { return self }
        let targetWidth = max(1, width * maxSide / longest)
        let targetHeight = max(1, height * maxSide / longest)
        var out = [UInt8](repeating: 0, count: targetWidth * targetHeight * 3)
        pixels.withUnsafeBufferPointer { source in
            for y in 0..<targetHeight {
                let y0 = y * height / targetHeight, y1 = max(y0 + 1, (y + 1) * height / targetHeight)
                for x in 0..<targetWidth {
                    let x0 = x * width / targetWidth, x1 = max(x0 + 1, (x + 1) * width / targetWidth)
                    var sums = (0, 0, 0)
                    for sy in y0..<y1 {
                        var index = (sy * width + x0) * 3
                        for _ in x0..<x1 {
                            sums.0 += Int(source[index]); sums.1 += Int(source[index + 1]); sums.2 += Int(source[index + 2])
                            index += 3
                        }
                    }
                    let count = (y1 - y0) * (x1 - x0), target = (y * targetWidth + x) * 3
                    out[target] = UInt8(sums.0 / count)
                    out[target + 1] = UInt8(sums.1 / count)
                    out[target + 2] = UInt8(sums.2 / count)
                }
            }
        }
        return RGBImage(width: targetWidth, height: targetHeight, pixels: out)!
    }
}
