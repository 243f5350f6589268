/// The certificate an Autocrypt header carries (docs/MAIL.md §6.1).
extension Certificate {
    /// This certificate reduced to what a correspondent needs to write to `address`: the primary key and its
    /// direct signatures, the user IDs naming exactly `address` (all of them when none does), and the subkeys
    /// usable at `time` for encryption or signing, with their bindings. Never any secret part.
    public func minimal(for address: String, at time: UInt32) -> Certificate {
        let wanted = address.lowercased()
        let naming = userIDs.filter { Self.userID($0.string, names: wanted) }
        let usable = Set((keys(with: .encrypt, at: time) + keys(with: .sign, at: time)).map(\.fingerprint))
        return Certificate(primaryKey: primaryKey, directSignatures: directSignatures,
                           userIDs: naming.isEmpty ? userIDs : naming,
                           subkeys: subkeys.filter { usable.contains($0.key.fingerprint) }, secretKeys: [])
    }

    /// Whether a user ID names exactly `address` (lowercase): the whole ID, or its `<address>` part.
    public static func userID(_ userID: String, names address: String) -> Bool {
        let id = userID.lowercased()
        return id == address || id.hasSuffix("<\(address)>")
    }

    /// Whether one of the user IDs names exactly `address`.
    public func names(_ address: String) -> Bool {
        let wanted = address.lowercased()
        return userIDs.contains { Self.userID($0.string, names: wanted) }
    }
}
