import ParleyPGP

/// Bytes read as a stream in chunks of pseudo-random size, chosen by one seed byte: the streaming readers
/// must give the same answer however the input is cut (a pipe or a socket cuts it anywhere).
final class ChunkedInput: PGPInput {
    private let bytes: [UInt8]
    private var offset = 0
    private var state: UInt32
    private let largest: Int

    /// A stream over `bytes`; `seed`'s low bits pick the largest chunk (1 byte up to 64 KiB + 1), the rest the sizes.
    init(_ bytes: [UInt8], seed: UInt8) {
        self.bytes = bytes
        state = UInt32(seed) &* 0x9E37_79B9 | 1
        largest = [1, 3, 16, 100, 1000, 4097, 65537, 7][Int(seed & 7)]
    }

    func read(upTo count: Int) throws -> [UInt8] {
        // xorshift32: cheap and deterministic, so a crash reproduces from the same input.
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        let size = min(count, 1 + Int(state % UInt32(largest)))
        let end = min(bytes.count, offset + size)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}

/// The outcome of a streamed read, comparable across two ways of feeding it: what it returned or the error.
enum StreamOutcome<Value: Equatable>: Equatable {
    case value(Value, output: [UInt8])
    case failure(String)

    /// Runs `body` into a fresh output and records its outcome.
    init(_ body: (PGPMemoryOutput) throws -> Value) {
        let output = PGPMemoryOutput()
        do {
            self = .value(try body(output), output: output.bytes)
        } catch {
            self = .failure(String(describing: error))
        }
    }

    /// The value, when the read succeeded.
    var value: (Value, [UInt8])? {
        if case .value(let value, let output) = self { return (value, output) }
        return nil
    }
}
