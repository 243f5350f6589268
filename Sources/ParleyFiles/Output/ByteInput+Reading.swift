extension ByteInput {
    /// Reads up to `count` bytes; fewer only at the end of input.
    public func readPrefix(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = try bytes.withUnsafeMutableBytes { try readFully(into: $0) }
        return Array(bytes.prefix(filled))
    }

    /// Reads everything that is left (for formats that cannot be streamed), refusing more than `maximumBytes`
    /// (`FileError.io`): a device that never ends (`/dev/zero`) is not read into memory for ever.
    public func readAll(maximumBytes: Int = .max) throws -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try read(into: $0) }
            if count == 0 { return all }
            guard all.count + count <= maximumBytes else {
                throw FileError.io("it holds more than \(maximumBytes >> 20) MiB, the most read into memory here")
            }
            all += buffer.prefix(count)
        }
    }

    /// Counts the bytes that are left, reading through a reused buffer.
    public func countRemaining() throws -> UInt64 {
        var total: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try read(into: $0) }
            if count == 0 { return total }
            total += UInt64(count)
        }
    }
}
