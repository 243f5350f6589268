import ParleyWire

/// Online/offline tracking: an account is online while any of its devices is connected.
///
/// Contacts (people who share an active conversation) hear `user_online` when an account's first
/// device connects and `user_offline` when its last one leaves; a device that logs in gets
/// `online_users` with the contacts online at that moment.
enum Presence {
    static func cameOnline(_ caller: Caller, wasOnline: Bool, context: ServerContext) async {
        // `last_seen` of list_devices; losing one such update to a store failure is harmless.
        try? await context.store.touchDevice(accountID: caller.accountID, deviceID: caller.deviceID, at: context.clock.now())
        guard let contacts = try? await context.store.contactIDs(accountID: caller.accountID) else { return }
        let online = contacts.filter { context.notifications.isOnline(accountID: $0) }
        context.notifications.notify(
            accountID: caller.accountID, deviceID: caller.deviceID, event: "online_users",
            fields: ["account_ids": .array(online.map { .number(Double($0)) })])
        guard !wasOnline else { return }
        for contact in online {
            context.notifications.notify(accountID: contact, event: "user_online", fields: ["account_id": .number(Double(caller.accountID))])
        }
    }

    static func wentOffline(_ caller: Caller, context: ServerContext) async {
        try? await context.store.touchDevice(accountID: caller.accountID, deviceID: caller.deviceID, at: context.clock.now())
        guard !context.notifications.isOnline(accountID: caller.accountID),
            let contacts = try? await context.store.contactIDs(accountID: caller.accountID)
        else { return }
        for contact in contacts {
            context.notifications.notify(accountID: contact, event: "user_offline", fields: ["account_id": .number(Double(caller.accountID))])
        }
    }
}
