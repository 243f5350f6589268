import CPNG

/// An 8-bit grayscale image (0 black … 255 white), row-major, one byte per pixel.
public struct GrayImage: Sendable, Equatable {
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// `width * height` gray levels.
    public let pixels: [UInt8]

    /// The largest PNG file `init(png:)` reads; a QR code never needs more.
    public static let maximumFileSize = 32 << 20
    /// The largest side, in pixels, `init(png:)` accepts, so a hostile header cannot make us allocate gigabytes.
    public static let maximumSide = 8_192

    /// An image from its pixels; `pixels.count` must be `width * height`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height, "pixels must fill the image")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Decodes a PNG file of any colour type into gray, compositing transparency onto white.
    public init(png data: [UInt8]) throws(QRError) {
        guard data.count <= Self.maximumFileSize else { throw .tooLarge("\(data.count) bytes; at most \(Self.maximumFileSize)") }
        guard data.count >= 8, data.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw .notAPNG("it does not start with the PNG signature")
        }
        var result: Result<GrayImage, QRError> = .failure(.notAPNG("empty"))
        data.withUnsafeBytes { raw in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            // libpng keeps pointing into `data` until finish_read or free, so both happen inside this closure.
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                result = .failure(.notAPNG(Self.message(of: image)))
                return
            }
            let width = Int(image.width), height = Int(image.height)
            guard width <= Self.maximumSide, height <= Self.maximumSide else {
                png_image_free(&image)
                result = .failure(.tooLarge("\(width)×\(height) pixels; at most \(Self.maximumSide) on a side"))
                return
            }
            image.format = UInt32(PNG_FORMAT_GRAY)
            var pixels = [UInt8](repeating: 255, count: width * height)
            var white = png_color(red: 255, green: 255, blue: 255)
            let finished = pixels.withUnsafeMutableBytes { buffer in
                png_image_finish_read(&image, &white, buffer.baseAddress, Int32(width), nil)
            }
            guard finished != 0 else {
                result = .failure(.notAPNG(Self.message(of: image)))
                return
            }
            result = .success(GrayImage(width: width, height: height, pixels: pixels))
        }
        self = try result.get()
    }

    /// The image as a grayscale 8-bit PNG file.
    public func png() throws(QRError) -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_GRAY)
        var size = 0
        // First call measures, second writes.
        let measured = pixels.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, Int32(width), nil) }
        guard measured != 0, size > 0 else { throw .cannotWrite(Self.message(of: image)) }
        var out = [UInt8](repeating: 0, count: size)
        let written = out.withUnsafeMutableBytes { memory in
            pixels.withUnsafeBytes { png_image_write_to_memory(&image, memory.baseAddress, &size, 0, $0.baseAddress, Int32(width), nil) }
        }
        guard written != 0 else { throw .cannotWrite(Self.message(of: image)) }
        return Array(out.prefix(size))
    }

    /// libpng's own explanation, which names the problem (bad CRC, truncated data…) but never the content.
    private static func message(of image: png_image) -> String {
        let text = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "unknown libpng error" : text
    }
}
