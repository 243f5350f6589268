extension QRMatrix {
    /// The code as a grayscale image: each module `scale` pixels square, dark modules black, with a white
    /// quiet zone of `margin` modules (the QR standard asks for 4).
    public func image(scale: Int = 8, margin: Int = 4) -> GrayImage {
        precondition(scale > 0 && margin >= 0, "scale must be positive")
        let side = (size + 2 * margin) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<size {
            for x in 0..<size where self[x: x, y: y] {
                for dy in 0..<scale {
                    let row = ((y + margin) * scale + dy) * side + (x + margin) * scale
                    for dx in 0..<scale { pixels[row + dx] = 0 }
                }
            }
        }
        return GrayImage(width: side, height: side, pixels: pixels)
    }

    /// The code as a PNG file (see `image(scale:margin:)`).
    public func png(scale: Int = 8, margin: Int = 4) throws(QRError) -> [UInt8] {
        try image(scale: scale, margin: margin).png()
    }
}
