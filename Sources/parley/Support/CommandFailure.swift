/// A failure that is not a usage mistake: printed as "Error: …" without the usage block.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
