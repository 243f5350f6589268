/// The `contacts` table (v19) and the triggers that keep it true, as `SQLiteContactsSchema` has them: for each ordered
/// pair of accounts, how many conversations (not deleted) both are active members of with no request owed; a pair is
/// there exactly while that is above zero. Blocks are applied when it is read.
///
/// The members' trigger runs BEFORE each row changes, not after: PostgreSQL runs a statement's row AFTER triggers only
/// once the whole statement is done, so members of one conversation inserted or deleted by one statement would each
/// see the others already there (counted twice) or already gone (never counted down); before each row, a trigger sees
/// the rows the statement changed earlier, as SQLite's row triggers do.
///
/// Increments are inserted in key order, so two transactions adding the same pairs lock them in one order; a
/// deadlock between decrements is retried as every transaction is (PostgresStore.transaction).
enum PostgresContactsSchema {
    static let migration = """
        CREATE TABLE contacts (
            account_id BIGINT NOT NULL,
            contact_id BIGINT NOT NULL,
            shared BIGINT NOT NULL,
            PRIMARY KEY (account_id, contact_id)
        );
        CREATE INDEX contacts_contact ON contacts(contact_id);
        \(ContactsFill.statement);
        CREATE FUNCTION parley_contacts_join(conversation BIGINT, member BIGINT) RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM conversations WHERE id = conversation AND deleted_at IS NULL) THEN
                RETURN;
            END IF;
            INSERT INTO contacts (account_id, contact_id, shared)
                SELECT pair.a, pair.b, 1 FROM (
                    SELECT member AS a, m.account_id AS b FROM members m
                    WHERE m.conversation_id = conversation AND m.status = 'active' AND m.request IS NULL AND m.account_id != member
                    UNION ALL
                    SELECT m.account_id, member FROM members m
                    WHERE m.conversation_id = conversation AND m.status = 'active' AND m.request IS NULL AND m.account_id != member
                ) AS pair ORDER BY pair.a, pair.b
                ON CONFLICT (account_id, contact_id) DO UPDATE SET shared = contacts.shared + 1;
        END
        $$;
        CREATE FUNCTION parley_contacts_leave(conversation BIGINT, member BIGINT) RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM conversations WHERE id = conversation AND deleted_at IS NULL) THEN
                RETURN;
            END IF;
            UPDATE contacts SET shared = contacts.shared - 1 FROM members m
                WHERE m.conversation_id = conversation AND m.status = 'active' AND m.request IS NULL AND m.account_id != member
                    AND ((contacts.account_id = member AND contacts.contact_id = m.account_id)
                        OR (contacts.contact_id = member AND contacts.account_id = m.account_id));
            DELETE FROM contacts WHERE (account_id = member OR contact_id = member) AND shared <= 0;
        END
        $$;
        CREATE FUNCTION parley_members_contacts() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            was BOOLEAN := FALSE;
            will BOOLEAN := FALSE;
        BEGIN
            IF TG_OP = 'INSERT' THEN
                -- An insert that meets its row already there becomes an update (ON CONFLICT DO UPDATE): counted there.
                IF EXISTS (SELECT 1 FROM members WHERE conversation_id = NEW.conversation_id AND account_id = NEW.account_id) THEN
                    RETURN NEW;
                END IF;
            ELSE
                was := OLD.status = 'active' AND OLD.request IS NULL;
            END IF;
            IF TG_OP <> 'DELETE' THEN
                will := NEW.status = 'active' AND NEW.request IS NULL;
            END IF;
            IF was AND NOT will THEN
                PERFORM parley_contacts_leave(OLD.conversation_id, OLD.account_id);
            ELSIF will AND NOT was THEN
                PERFORM parley_contacts_join(NEW.conversation_id, NEW.account_id);
            END IF;
            IF TG_OP = 'DELETE' THEN
                RETURN OLD;
            END IF;
            RETURN NEW;
        END
        $$;
        CREATE TRIGGER members_contacts BEFORE INSERT OR DELETE OR UPDATE OF status, request ON members
            FOR EACH ROW EXECUTE FUNCTION parley_members_contacts();
        CREATE FUNCTION parley_conversations_contacts() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN
                UPDATE contacts SET shared = contacts.shared - 1 FROM members a, members b
                    WHERE a.conversation_id = NEW.id AND b.conversation_id = NEW.id
                        AND a.status = 'active' AND a.request IS NULL AND b.status = 'active' AND b.request IS NULL
                        AND contacts.account_id = a.account_id AND contacts.contact_id = b.account_id;
                DELETE FROM contacts WHERE shared <= 0 AND account_id IN (
                    SELECT account_id FROM members WHERE conversation_id = NEW.id AND status = 'active' AND request IS NULL);
            ELSIF OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL THEN
                INSERT INTO contacts (account_id, contact_id, shared)
                    SELECT a.account_id, b.account_id, 1 FROM members a, members b
                    WHERE a.conversation_id = NEW.id AND b.conversation_id = NEW.id AND a.account_id != b.account_id
                        AND a.status = 'active' AND a.request IS NULL AND b.status = 'active' AND b.request IS NULL
                    ORDER BY a.account_id, b.account_id
                    ON CONFLICT (account_id, contact_id) DO UPDATE SET shared = contacts.shared + 1;
            END IF;
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER conversations_contacts AFTER UPDATE OF deleted_at ON conversations
            FOR EACH ROW EXECUTE FUNCTION parley_conversations_contacts();
        CREATE FUNCTION parley_conversations_members_first() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM members WHERE conversation_id = OLD.id;
            RETURN OLD;
        END
        $$;
        CREATE TRIGGER conversations_members_first BEFORE DELETE ON conversations
            FOR EACH ROW EXECUTE FUNCTION parley_conversations_members_first()
        """
}
