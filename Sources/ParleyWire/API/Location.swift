/// (not typed yet)
extension API {
    static let locationMethods: [any APIMethod.Type] = []
}
