/// Why an image could not be read or made.
public enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a JPEG or PNG this library reads.
    case unsupportedFormat
    /// The bytes are not a decodable image (garbage, truncated, an unsupported variant); the library's reason.
    case invalid(String)
    /// The header declares dimensions past the limit; refused before any pixel memory is taken.
    case tooLarge(width: Int, height: Int)
    /// The image library could not get memory.
    case outOfMemory

    public var description: String {
        switch self {
        case .unsupportedFormat: "not a JPEG or PNG image"
        case .invalid(let why): "the image cannot be decoded: \(why)"
        case .tooLarge: "the image's dimensions are larger than allowed"
        case .outOfMemory: "not enough memory to decode the image"
        }
    }
}
