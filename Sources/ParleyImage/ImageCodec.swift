import CParleyImage

/// JPEG and PNG through libjpeg-turbo and libpng (Debian's), never a hand-written codec.
public enum ImageCodec {
    /// The widest or tallest image accepted; larger headers are refused before decoding.
    public static let maximumSide = 20_000
    /// The most pixels a PNG may have (PNG cannot be scaled while decoding, as JPEG can).
    public static let maximumPNGPixels = 25_000_000

    /// Which format `bytes` start like, by magic bytes.
    public enum Format: Sendable { case jpeg, png }

    /// The format of `bytes`, or nil when it is neither JPEG nor PNG.
    public static func format(of bytes: [UInt8]) -> Format? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        return nil
    }

    /// Decodes a JPEG or PNG. JPEGs are scaled down while decoding (1/2 … 1/8) as far as `minimumSide` allows,
    /// which keeps memory small for large photos. Returns the pixels and the stored image's own size.
    public static func decode(_ bytes: [UInt8], minimumSide: Int = .max) throws(ImageError) -> (image: RGBImage, width: Int, height: Int) {
        guard let format = format(of: bytes) else { throw .unsupportedFormat }
        var raw = pimg_image()
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { input in
            message.withUnsafeMutableBufferPointer { text in
                switch format {
                case .jpeg:
                    pimg_jpeg_decode(input.baseAddress, input.count, Int32(clamping: minimumSide), Int32(maximumSide), &raw, text.baseAddress, text.count)
                case .png:
                    pimg_png_decode(input.baseAddress, input.count, Int32(maximumSide), maximumPNGPixels, &raw, text.baseAddress, text.count)
                }
            }
        }
        defer { pimg_free(raw.pixels) }
        switch Int(status) {
        case Int(PIMG_OK):
            break
        case Int(PIMG_TOO_LARGE):
            throw .tooLarge(width: Int(raw.source_width), height: Int(raw.source_height))
        case Int(PIMG_NO_MEMORY):
            throw .outOfMemory
        default:
            throw .invalid(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let width = Int(raw.width), height = Int(raw.height)
        let pixels = Array(UnsafeBufferPointer(start: raw.pixels, count: width * height * 3))
        guard let image = RGBImage(width: width, height: height, pixels: pixels) else { throw .invalid("inconsistent decoder output") }
        return (image, Int(raw.source_width), Int(raw.source_height))
    }

    /// Encodes `image` as a baseline JPEG.
    public static func encodeJPEG(_ image: RGBImage, quality: Int = 75) throws(ImageError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            message.withUnsafeMutableBufferPointer { text in
                pimg_jpeg_encode(pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(quality), &output, &length, text.baseAddress, text.count)
            }
        }
        defer { pimg_free(output) }
        guard status == PIMG_OK, let output else {
            throw .invalid(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }
}
