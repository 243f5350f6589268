/// (not typed yet)
extension API {
    static let sessionMethods: [any APIMethod.Type] = []
}
