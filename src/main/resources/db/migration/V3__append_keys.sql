-- The Idempotency-Keys of appends (docs/API.md#idempotent-appends): the body each key came with, written in the
-- transaction of its append, so that every replica, and a restarted one, refuses the key sent again with another
-- body. The entries themselves are found by the ids the key derives; this table only tells bodies apart. A row counts
-- for arbor.api.idempotency-window after it was written; older ones of a session go with its next keyed append.
CREATE TABLE arbor_append_key (
    session_id text        NOT NULL REFERENCES arbor_session (id) ON DELETE CASCADE,
    key        text        NOT NULL,
    -- SHA-256 of the drafts as JSON, as AppendKeys hashes them.
    body_hash  bytea       NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (session_id, key)
);
