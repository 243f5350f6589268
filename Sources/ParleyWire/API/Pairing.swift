/// (not typed yet)
extension API {
    static let pairingMethods: [any APIMethod.Type] = []
}
