import ParleyWire

/// `delete_account` (docs/API.md §3): the owner removes the account and everything the server holds for it.
///
/// The same removal serves `parley server admin accounts delete`; `events` is what either way tells the
/// people concerned and closes the account's connections.
enum AccountDeletion {
    static func register(in router: inout RequestRouter) {
        router.add(API.DeleteAccount.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            // A typed confirmation in the request itself: no stray or replayed call deletes an account by accident.
            let confirm = request.confirm
            let account = try await StoreCall.call(context) { try await context.store.account(id: caller.accountID) }
            guard let account else { throw WireError(.notFound, "this account no longer exists") }
            guard (try? IdentityText.email(confirm)) == account.email else {
                throw .invalid("confirm", "must be this account's e-mail address")
            }
            let deleted = try await StoreCall.call(context) { try await context.store.deleteAccount(id: caller.accountID) }
            guard let deleted else { throw WireError(.notFound, "this account no longer exists") }
            // The caller's own connection closes once this answer is written (a disconnect drains).
            events(for: deleted).forEach(context.notifications.share)
            return API.DeleteAccount.Response(deleted: true)
        }
    }

    /// What a deletion tells: the other person of each direct conversation that went, the remaining members
    /// of each group it left, every contact (`account_deleted`); then every connection of the account closes.
    static func events(for deleted: DeletedAccount) -> [ClusterEvent] {
        let id = deleted.accountID
        var events: [ClusterEvent] = []
        for conversation in deleted.directConversations {
            for member in conversation.members {
                events.append(ClusterEvent(accountID: member, action: .notify(
                    .conversationDeleted(.init(conversationID: conversation.id, reason: "account_deleted")))))
            }
        }
        for group in deleted.groups {
            for member in group.members {
                events.append(ClusterEvent(accountID: member, action: .notify(
                    .memberRemoved(.init(conversationID: group.id, accountID: id, reason: "account_deleted")))))
            }
        }
        var told = Set<Int64>()
        for contact in deleted.contacts + deleted.directConversations.flatMap(\.members) where told.insert(contact).inserted {
            events.append(ClusterEvent(accountID: contact, action: .notify(.accountDeleted(.init(accountID: id)))))
        }
        events.append(ClusterEvent(accountID: deleted.accountID, action: .notify(.accountDeleted(.init(accountID: id)))))
        events.append(ClusterEvent(accountID: deleted.accountID, action: .disconnect))
        return events
    }
}
