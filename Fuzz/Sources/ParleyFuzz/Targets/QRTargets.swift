import ParleyQR

extension FuzzTarget {
    static let qrTargets: [FuzzTarget] = [
        FuzzTarget("qr-png", "PNG images decode to gray pixels or fail cleanly, and re-encode to the same pixels; the QR scanner reads them or fails cleanly", run: qrPNG),
    ]
}

private func qrPNG(_ bytes: [UInt8]) {
    guard let image = try? GrayImage(png: bytes) else { return }
    // zbar's scan is the slow part; a huge image is legal but would only measure zbar.
    guard image.width * image.height <= 1 << 20 else { return }
    if let png = try? image.png() {
        let again = try? GrayImage(png: png)
        require(again?.pixels == image.pixels && again?.width == image.width, "a gray image written as PNG reads back as other pixels")
    }
    _ = try? QRScanner.decode(image)
}
