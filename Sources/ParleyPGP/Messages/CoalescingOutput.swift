/// Gathers many small writes (a line, its ending, an escape) into chunks before they reach the output
/// underneath, so text processed line by line does not cost a system call per line.
final class CoalescingOutput {
    private let output: PGPOutput
    private var buffer: [UInt8] = []

    init(_ output: PGPOutput) {
        self.output = output
        buffer.reserveCapacity(PGPStream.chunkSize)
    }

    func write<C: Collection<UInt8>>(_ bytes: C) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= PGPStream.chunkSize { try flush() }
    }

    func write(_ text: String) throws { try write(text.utf8) }

    /// Passes on everything gathered.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        try output.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
