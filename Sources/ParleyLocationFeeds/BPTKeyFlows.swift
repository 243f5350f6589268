/// The tracker side of an account's Berry Picker Tracker identity (`parley location bpt-key`): a user made on
/// the tracker's server for a new key, a key replaced by a new user (the old one deleted, so old links stop
/// working), and a user deleted before its key is forgotten. Keeping and forgetting the key is the caller's
/// (the account's vault); a failure there after the server changed is the caller's to word.
public enum BPTKeyFlows {
    /// Registers a new user on `tracker` and hands its id to `keep`, which keeps a new key for it.
    public static func create<T>(on tracker: BPTClient, keep: (String) throws -> T) async throws -> T {
        try keep(try await tracker.createUser())
    }

    /// Registers a new user on `tracker`, hands its id to `keep`, then deletes the user `oldUserID`. Returns what
    /// `keep` made and whether the old user was deleted; a failed deletion is told to `note`, not thrown: the
    /// new key is kept already.
    public static func rotate<T>(on tracker: BPTClient, replacing oldUserID: String, keep: (String) throws -> T,
                                 note: (String) -> Void) async throws -> (kept: T, oldDeleted: Bool) {
        let kept = try keep(try await tracker.createUser())
        do {
            try await tracker.deleteUser(oldUserID)
            return (kept, true)
        } catch {
            note("the old tracker user \(oldUserID) could not be deleted (\(error)); holders of the old link can still read what was posted before")
            return (kept, false)
        }
    }

    /// Deletes user `userID` (and its routes) on `tracker` unless `localOnly` (which needs no tracker), then calls
    /// `forget`. When the server refuses, the key is kept and the error says how to forget it anyway.
    public static func delete(on tracker: BPTClient?, userID: String, localOnly: Bool, forget: () throws -> Void) async throws {
        if !localOnly {
            guard let tracker else { throw LocationFeedError("no tracker server to delete the user at; to forget the key only, add --local-only") }
            do {
                try await tracker.deleteUser(userID)
            } catch {
                throw LocationFeedError("\(error); the key is still kept. To forget it anyway, add --local-only")
            }
        }
        try forget()
    }
}
