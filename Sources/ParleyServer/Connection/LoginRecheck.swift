/// Closes a connection whose login raced an operator's disable, an account deletion or a device removal: the
/// login read the account before the change committed, and the event that closes connections went out before
/// this connection subscribed to hear it. Checked once, after subscribing, so one of the two always catches it.
enum LoginRecheck {
    static func run(_ caller: Caller, state: ConnectionState, context: ServerContext) async {
        do {
            let account = try await context.store.account(id: caller.accountID)
            let device = try await context.store.device(accountID: caller.accountID, deviceID: caller.deviceID)
            if account == nil || account?.disabledAt != nil || device == nil { state.drain() }
        } catch {
            // The store is unreachable: the connection's next request meets the same store and says so.
        }
    }
}
