/// Every method of the API, by area. The server serves exactly these (RouterRegistryTests checks it),
/// and a test checks that docs/API.md's method index lists the same names and fields.
extension API {
    /// Every method, in docs/API.md's order.
    public static let methods: [any APIMethod.Type] =
        sessionMethods + accountMethods + keyMethods + conversationMethods + requestMethods + messageMethods
        + profileMethods + fileMethods + upkeepMethods + locationMethods + pairingMethods

    /// The method called `name`, if there is one.
    public static func method(named name: String) -> (any APIMethod.Type)? { byName[name] }

    private static let byName: [String: any APIMethod.Type] = Dictionary(methods.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    static let profileMethods: [any APIMethod.Type] = [
        GetProfile.self, UpdateProfile.self, UpdateAvatar.self, GetAvatar.self, UpdateGroupAvatar.self, GetGroupAvatar.self,
    ]
}
