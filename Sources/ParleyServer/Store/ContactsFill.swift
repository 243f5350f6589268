/// The statement both backends' contacts migrations fill the `contacts` table with, from the memberships there:
/// for each ordered pair of accounts, how many conversations (not deleted) both are active members of with no request
/// owed. Plain SQL that SQLite and PostgreSQL read alike (SQLiteContactsSchema, PostgresContactsSchema).
enum ContactsFill {
    static let statement = """
        INSERT INTO contacts (account_id, contact_id, shared)
            SELECT mine.account_id, other.account_id, COUNT(*) FROM members mine
            JOIN members other ON other.conversation_id = mine.conversation_id
            JOIN conversations c ON c.id = mine.conversation_id
            WHERE mine.status = 'active' AND other.status = 'active' AND mine.request IS NULL AND other.request IS NULL
                AND mine.account_id != other.account_id AND c.deleted_at IS NULL
            GROUP BY mine.account_id, other.account_id
        """
}
