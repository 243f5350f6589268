/// (not typed yet)
extension API {
    static let upkeepMethods: [any APIMethod.Type] = []
}
