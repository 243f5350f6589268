/// (not typed yet)
extension API {
    static let accountMethods: [any APIMethod.Type] = []
}
