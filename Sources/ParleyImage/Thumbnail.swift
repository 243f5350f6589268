/// A small JPEG preview of an image, small enough to travel inside a message.
public struct Thumbnail: Sendable, Equatable {
    /// The JPEG bytes.
    public let jpeg: [UInt8]
    /// The thumbnail's width in pixels.
    public let width: Int
    /// The thumbnail's height in pixels.
    public let height: Int
    /// The original image's width.
    public let sourceWidth: Int
    /// The original image's height.
    public let sourceHeight: Int

    /// The default longest side, in pixels.
    public static let defaultSide = 160

    /// Makes a thumbnail of a JPEG or PNG whose longest side is at most `maxSide` pixels.
    public static func make(from bytes: [UInt8], maxSide: Int = defaultSide, quality: Int = 70) throws(ImageError) -> Thumbnail {
        let decoded = try ImageCodec.decode(bytes, minimumSide: maxSide)
        let small = decoded.image.shrunk(toFit: maxSide)
        return Thumbnail(jpeg: try ImageCodec.encodeJPEG(small, quality: quality), width: small.width, height: small.height,
                         sourceWidth: decoded.width, sourceHeight: decoded.height)
    }
}
