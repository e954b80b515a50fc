-- Full-text search (docs/API.md#search): a row for each entry that contributes text (SearchText), written in the
-- transaction that writes the entry and gone with it. Its words are made in Java by the rule the Lucene index of the
-- file store shares (SearchTokens) and stored as a tsvector literal with their positions, so that PostgreSQL never
-- splits or stems them by rules of its own. A session's cwd is kept beside it (UTF-8, as bytes, like name) for the
-- cwd filter. A session stored before this migration has search_ready false until the store indexes its entries, at
-- start-up, by the same code as every insert; rows written from now on are ready as they are inserted.
CREATE TABLE arbor_search (
    session_id text     NOT NULL,
    seq        integer  NOT NULL,
    role       text     NOT NULL,
    -- The entry's timestamp in epoch milliseconds, or the smallest bigint when it has none.
    timestamp  bigint   NOT NULL,
    words      tsvector NOT NULL,
    PRIMARY KEY (session_id, seq),
    FOREIGN KEY (session_id, seq) REFERENCES arbor_entry (session_id, seq) ON DELETE CASCADE
);

CREATE INDEX arbor_search_words ON arbor_search USING GIN (words);

ALTER TABLE arbor_session
    ADD COLUMN cwd          bytea,
    ADD COLUMN search_ready boolean NOT NULL DEFAULT false;
ALTER TABLE arbor_session ALTER COLUMN search_ready SET DEFAULT true;
