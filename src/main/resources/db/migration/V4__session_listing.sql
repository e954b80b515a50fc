-- What pi's listing shows of a session (docs/SESSION-FORMAT.md#how-a-session-is-listed): its name, its first user
-- message (UTF-8, as bytes: PostgreSQL's text holds no NUL, which a JSON string may) and its message count, written
-- in the transaction of every insert and append. A session stored before these columns has a NULL message_count
-- until the store fills its row in from its entries, at start-up, by the same code as every append: the rules
-- are pi's JavaScript, kept once, in Java, rather than a second time in SQL.
ALTER TABLE arbor_session
    ADD COLUMN name          bytea,
    ADD COLUMN first_message bytea,
    ADD COLUMN message_count integer;
