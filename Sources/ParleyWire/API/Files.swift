/// (not typed yet)
extension API {
    static let fileMethods: [any APIMethod.Type] = []
}
