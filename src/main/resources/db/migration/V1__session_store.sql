-- The PostgreSQL session store (arbor.storage.type=postgres). A session is its rows in arbor_session (the header,
-- the title slot, the leaf and what a listing shows) and arbor_entry (each entry's line exactly as stored, in file
-- order), so that an export gives the same bytes as the file store's. Every change of a session takes its advisory
-- lock first and bumps its position: a replica's cached tree is current while the positions agree.

CREATE TABLE arbor_session (
    id                   text PRIMARY KEY,
    -- Tells a session apart from an earlier one of the same id (deleted, then imported again).
    incarnation          uuid        NOT NULL DEFAULT gen_random_uuid(),
    position             bigint      NOT NULL DEFAULT 0,
    header               bytea       NOT NULL,
    title_slot           bytea,
    title                text,
    leaf_id              text,
    entry_count          integer     NOT NULL,
    -- The session's size as a file (every line and its newline): what arbor.storage.max-session-size bounds.
    bytes                bigint      NOT NULL,
    last_entry_timestamp bigint      NOT NULL,
    changed_at           bigint      NOT NULL,
    -- The navigation that holds the session (a lease, renewed while it runs), and an abort asked of it.
    nav_owner            text,
    nav_request_id       text,
    nav_expires_at       timestamptz,
    nav_abort            boolean     NOT NULL DEFAULT false
);

CREATE TABLE arbor_entry (
    session_id text    NOT NULL REFERENCES arbor_session (id) ON DELETE CASCADE,
    seq        integer NOT NULL,
    line       bytea   NOT NULL,
    PRIMARY KEY (session_id, seq)
);

-- Every event the API sends, for every replica's subscribers and for Last-Event-ID replay, kept for
-- arbor.events.retention. An event is numbered by the transaction that wrote it and its place in it, and read in that
-- order, only from transactions older than every transaction still running: a reader never finds an event before
-- one it has read already (see PostgresEventBus). Its id on the wire is tx * 2^24 + seq.
CREATE TABLE arbor_event (
    tx         bigint      NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
    seq        integer     NOT NULL,
    session_id text        NOT NULL,
    type       text        NOT NULL,
    data       text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tx, seq)
);

CREATE INDEX arbor_event_session_order ON arbor_event (session_id, tx, seq);
CREATE INDEX arbor_event_age ON arbor_event (created_at);

-- The newest event the retention has removed: a client that saw less may have missed events, and gets a resync.
CREATE TABLE arbor_event_horizon (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    tx       bigint  NOT NULL,
    seq      integer NOT NULL
);
INSERT INTO arbor_event_horizon (tx, seq) VALUES (0, 0);
