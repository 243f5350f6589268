import ParleyWire

/// Online/offline tracking: an account is online while any of its devices is connected.
///
/// Contacts (people who share an active conversation) hear `user_online` when an account's first
/// device connects and `user_offline` when its last one leaves; a device that logs in gets
/// `online_users` with the contacts online at that moment.
enum Presence {
    /// `onlineHere`: whether another device of the account was already connected to this node.
    static func cameOnline(_ caller: Caller, onlineHere: Bool, context: ServerContext) async {
        // `last_seen` of list_devices; losing one such update to a store failure is harmless.
        try? await context.store.touchDevice(accountID: caller.accountID, deviceID: caller.deviceID, at: context.clock.now())
        let wasOnline = await context.presence.arrived(caller, onlineHere: onlineHere)
        guard let contacts = try? await context.store.contactIDs(accountID: caller.accountID) else { return }
        let online = await context.presence.online(contacts)
        context.notifications.notify(accountID: caller.accountID, deviceID: caller.deviceID, .onlineUsers(.init(accountIDs: contacts.filter(online.contains))))
        guard !wasOnline else { return }
        for contact in contacts where online.contains(contact) {
            context.notifications.notify(accountID: contact, .userOnline(.init(accountID: caller.accountID)))
        }
    }

    static func wentOffline(_ caller: Caller, context: ServerContext) async {
        try? await context.store.touchDevice(accountID: caller.accountID, deviceID: caller.deviceID, at: context.clock.now())
        await context.presence.left(caller)
        guard await !context.presence.isOnline(caller.accountID),
            let contacts = try? await context.store.contactIDs(accountID: caller.accountID)
        else { return }
        for contact in contacts {
            context.notifications.notify(accountID: contact, .userOffline(.init(accountID: caller.accountID)))
        }
    }
}
