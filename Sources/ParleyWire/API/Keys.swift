/// (not typed yet)
extension API {
    static let keyMethods: [any APIMethod.Type] = []
}
