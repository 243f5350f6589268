/// The age property: what decodes re-encodes to the very bytes it came from (for canonical formats).
func requireCanonical<Value>(
    _ bytes: [UInt8], _ name: String, decode: ([UInt8]) throws -> Value, encode: (Value) -> [UInt8],
    file: StaticString = #fileID, line: UInt = #line
) {
    guard let value = try? decode(bytes) else { return }
    require(encode(value) == bytes, "\(name): decodes but re-encodes to other bytes", file: file, line: line)
}

/// The weaker property for formats with more than one spelling: the re-encoding is a fixed point
/// (it decodes, and re-encodes to itself).
func requireStable<Value>(
    _ bytes: [UInt8], _ name: String, decode: ([UInt8]) throws -> Value, encode: (Value) throws -> [UInt8],
    file: StaticString = #fileID, line: UInt = #line
) {
    guard let value = try? decode(bytes) else { return }
    guard let once = try? encode(value) else { violated("\(name): decodes but cannot be encoded", file: file, line: line) }
    guard let again = try? decode(once) else { violated("\(name): its own encoding does not decode", file: file, line: line) }
    require((try? encode(again)) == once, "\(name): encoding is not stable", file: file, line: line)
}
