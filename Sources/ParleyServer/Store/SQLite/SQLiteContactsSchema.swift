/// The `contacts` table (v18) and the triggers that keep it true: for each ordered pair of accounts, how many
/// conversations (not deleted) both are active members of with no request owed (`shared`); a pair is there exactly
/// while that is above zero. Blocks are not in it: they are applied when it is read.
///
/// Reading an account's contacts from the memberships meant reading every member of every one of its
/// conversations: an account in the most groups allowed, each as large as allowed, has about 257,000 such rows for
/// 256 contacts, and took 0.16–0.20 s a read — at each login, logout, profile change and key rotation
/// (docs/OPERATIONS.md §1.3). Kept by triggers, every way a membership, a request or a conversation changes
/// (including ones written later) keeps the table true without the code that changes it knowing; a change costs a
/// row per other member of the one conversation it touches (deleting a group of 256: 65,280).
///
/// A conversation's members are deleted before the conversation itself, so their trigger still sees whether the
/// conversation was live (SQLite does not promise that while a cascade runs).
enum SQLiteContactsSchema {
    /// Active, accepted members of conversation `conversation` other than `account` (SQL expressions).
    private static func others(_ conversation: String, _ account: String) -> String {
        """
        SELECT account_id FROM members WHERE conversation_id = \(conversation) AND status = 'active' \
        AND request IS NULL AND account_id != \(account)
        """
    }

    private static func live(_ conversation: String) -> String {
        "EXISTS (SELECT 1 FROM conversations WHERE id = \(conversation) AND deleted_at IS NULL)"
    }

    private static func counted(_ row: String) -> String {
        "(\(row).status = 'active' AND \(row).request IS NULL)"
    }

    /// `account` now counts in `conversation`: one more shared conversation with each other counted member.
    private static func join(_ conversation: String, _ account: String) -> String {
        """
        INSERT INTO contacts (account_id, contact_id, shared)
            SELECT \(account), account_id, 1 FROM (\(others(conversation, account))) WHERE true
            ON CONFLICT (account_id, contact_id) DO UPDATE SET shared = shared + 1;
        INSERT INTO contacts (account_id, contact_id, shared)
            SELECT account_id, \(account), 1 FROM (\(others(conversation, account))) WHERE true
            ON CONFLICT (account_id, contact_id) DO UPDATE SET shared = shared + 1;
        """
    }

    /// `account` no longer counts in `conversation`: one fewer with each other counted member; pairs at zero go.
    private static func leave(_ conversation: String, _ account: String) -> String {
        """
        UPDATE contacts SET shared = shared - 1
            WHERE account_id = \(account) AND contact_id IN (\(others(conversation, account)));
        UPDATE contacts SET shared = shared - 1
            WHERE contact_id = \(account) AND account_id IN (\(others(conversation, account)));
        DELETE FROM contacts WHERE account_id = \(account) AND shared <= 0;
        DELETE FROM contacts WHERE contact_id = \(account) AND shared <= 0;
        """
    }

    /// Every counted member of `conversation` (for a conversation deleted or restored at once).
    private static func everyone(_ conversation: String) -> String {
        "SELECT account_id FROM members WHERE conversation_id = \(conversation) AND status = 'active' AND request IS NULL"
    }

    static let migration = """
        CREATE TABLE contacts (
            account_id INTEGER NOT NULL,
            contact_id INTEGER NOT NULL,
            shared INTEGER NOT NULL,
            PRIMARY KEY (account_id, contact_id)
        ) WITHOUT ROWID;
        CREATE INDEX contacts_contact ON contacts(contact_id);
        \(ContactsFill.statement);
        CREATE TRIGGER members_contacts_insert AFTER INSERT ON members
        WHEN \(counted("NEW")) AND \(live("NEW.conversation_id"))
        BEGIN
            \(join("NEW.conversation_id", "NEW.account_id"))
        END;
        CREATE TRIGGER members_contacts_delete AFTER DELETE ON members
        WHEN \(counted("OLD")) AND \(live("OLD.conversation_id"))
        BEGIN
            \(leave("OLD.conversation_id", "OLD.account_id"))
        END;
        CREATE TRIGGER members_contacts_counted AFTER UPDATE OF status, request ON members
        WHEN NOT \(counted("OLD")) AND \(counted("NEW")) AND \(live("NEW.conversation_id"))
        BEGIN
            \(join("NEW.conversation_id", "NEW.account_id"))
        END;
        CREATE TRIGGER members_contacts_uncounted AFTER UPDATE OF status, request ON members
        WHEN \(counted("OLD")) AND NOT \(counted("NEW")) AND \(live("NEW.conversation_id"))
        BEGIN
            \(leave("NEW.conversation_id", "NEW.account_id"))
        END;
        CREATE TRIGGER conversations_contacts_deleted AFTER UPDATE OF deleted_at ON conversations
        WHEN OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL
        BEGIN
            UPDATE contacts SET shared = shared - 1
                WHERE account_id IN (\(everyone("NEW.id"))) AND contact_id IN (\(everyone("NEW.id")));
            DELETE FROM contacts WHERE account_id IN (\(everyone("NEW.id"))) AND shared <= 0;
        END;
        CREATE TRIGGER conversations_contacts_restored AFTER UPDATE OF deleted_at ON conversations
        WHEN OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL
        BEGIN
            INSERT INTO contacts (account_id, contact_id, shared)
                SELECT a.account_id, b.account_id, 1 FROM (\(everyone("NEW.id"))) a, (\(everyone("NEW.id"))) b
                WHERE a.account_id != b.account_id
                ON CONFLICT (account_id, contact_id) DO UPDATE SET shared = shared + 1;
        END;
        CREATE TRIGGER conversations_contacts_removed BEFORE DELETE ON conversations
        BEGIN
            DELETE FROM members WHERE conversation_id = OLD.id;
        END;
        """
}
