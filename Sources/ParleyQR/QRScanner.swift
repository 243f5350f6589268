import CZBar

/// Finds and decodes QR codes in images with zbar.
public enum QRScanner {
    /// The raw bytes of every QR code zbar finds in `image`, top-most first; throws `.noQRCode` when none.
    public static func decode(_ image: GrayImage) throws(QRError) -> [[UInt8]] {
        guard let scanner = zbar_image_scanner_create() else { throw .noQRCode }
        defer { zbar_image_scanner_destroy(scanner) }
        // Only QR codes, and their bytes as they are: zbar would otherwise guess a text encoding and convert.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
        guard let zimage = zbar_image_create() else { throw .noQRCode }
        defer { zbar_image_destroy(zimage) }
        zbar_image_set_format(zimage, fourcc("Y800"))
        zbar_image_set_size(zimage, UInt32(image.width), UInt32(image.height))
        var found: [(top: Int32, bytes: [UInt8])] = []
        image.pixels.withUnsafeBytes { pixels in
            // zbar only reads the pixels during zbar_scan_image, and no cleanup handler is set, so lending
            // it our buffer for this call is safe.
            zbar_image_set_data(zimage, pixels.baseAddress, UInt(pixels.count), nil)
            guard zbar_scan_image(scanner, zimage) > 0 else { return }
            var symbol = zbar_image_first_symbol(zimage)
            while let current = symbol {
                if zbar_symbol_get_type(current) == ZBAR_QRCODE, let data = zbar_symbol_get_data(current) {
                    let length = Int(zbar_symbol_get_data_length(current))
                    let bytes = UnsafeRawBufferPointer(start: data, count: length)
                    found.append((zbar_symbol_get_loc_y(current, 0), Array(bytes)))
                }
                symbol = zbar_symbol_next(current)
            }
            zbar_image_set_data(zimage, nil, 0, nil)
        }
        guard !found.isEmpty else { throw .noQRCode }
        return found.sorted { $0.top < $1.top }.map(\.bytes)
    }

    /// Reads a PNG file and decodes the QR codes in it.
    public static func decode(png: [UInt8]) throws(QRError) -> [[UInt8]] {
        try decode(try GrayImage(png: png))
    }

    private static func fourcc(_ code: String) -> UInt {
        let bytes = Array(code.utf8)
        return UInt(bytes[0]) | UInt(bytes[1]) << 8 | UInt(bytes[2]) << 16 | UInt(bytes[3]) << 24
    }
}
