/// (not typed yet)
extension API {
    static let requestMethods: [any APIMethod.Type] = []
}
