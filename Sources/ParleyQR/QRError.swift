/// Why a QR code could not be made, drawn, read or found.
public enum QRError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data does not fit in a QR code (or is empty).
    case cannotEncode(String)
    /// The file is not a PNG image, or it is damaged or cut short.
    case notAPNG(String)
    /// The image or file is larger than this reader accepts.
    case tooLarge(String)
    /// The image holds no readable QR code.
    case noQRCode
    /// The PNG could not be written.
    case cannotWrite(String)

    public var description: String {
        switch self {
        case .cannotEncode(let why): "cannot make a QR code: \(why)"
        case .notAPNG(let why): "the image is not a readable PNG file (\(why)); export the code as PNG and try again"
        case .tooLarge(let why): "the image is too large (\(why)); crop it to the QR code and try again"
        case .noQRCode: "no QR code found in the image; make sure the whole code is visible and sharp"
        case .cannotWrite(let why): "cannot write the PNG image: \(why)"
        }
    }
}
