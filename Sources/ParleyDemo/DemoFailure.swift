/// A step of the tour that did not do what the tour says (the command prints it after "the demo failed: ").
struct DemoFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
