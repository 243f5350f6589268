import CQREncode

/// A QR code as a square of modules (dark or light), made by libqrencode.
public struct QRMatrix: Sendable, Equatable {
    /// Modules per side (21 for version 1, +4 per version).
    public let size: Int
    /// Row-major modules; `true` is dark.
    public let modules: [Bool]

    /// A matrix from its modules; `modules.count` must be `size * size`.
    public init(size: Int, modules: [Bool]) {
        precondition(size > 0 && modules.count == size * size, "a QR matrix is square")
        self.size = size
        self.modules = modules
    }

    /// Whether the module at column `x`, row `y` is dark; outside the code (the quiet zone) is light.
    public subscript(x x: Int, y y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }

    /// Encodes `bytes` in 8-bit mode with error correction level M (15 % of the code may be damaged),
    /// in the smallest version that holds them.
    public static func encode(_ bytes: [UInt8]) throws(QRError) -> QRMatrix {
        // Version 40-M holds 2,331 bytes; refuse early rather than let libqrencode fail with ERANGE.
        guard !bytes.isEmpty else { throw .cannotEncode("there is nothing to encode") }
        guard bytes.count <= 2_331 else { throw .cannotEncode("\(bytes.count) bytes is more than a QR code holds") }
        guard let code = bytes.withUnsafeBufferPointer({ QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, QR_ECLEVEL_M) }) else {
            throw .cannotEncode("libqrencode refused the data")
        }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // libqrencode's bit 0 of each byte is the module's colour; the other bits describe its role.
        let buffer = UnsafeBufferPointer(start: code.pointee.data, count: size * size)
        return QRMatrix(size: size, modules: buffer.map { $0 & 1 == 1 })
    }
}
