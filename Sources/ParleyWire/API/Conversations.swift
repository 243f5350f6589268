/// (not typed yet)
extension API {
    static let conversationMethods: [any APIMethod.Type] = []
}
