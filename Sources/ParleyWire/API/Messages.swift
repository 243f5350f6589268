/// (not typed yet)
extension API {
    static let messageMethods: [any APIMethod.Type] = []
}
