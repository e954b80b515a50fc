-- A navigation that holds its session marks it here, in the same row as an abort asked of it, before it changes the
-- session: whichever of the two updates of the row comes first decides, so that an abort sent to another replica is
-- answered 202 only when it took, and 404 when the navigation was applying its result already (docs/API.md#navigation).
ALTER TABLE arbor_session ADD COLUMN nav_applying boolean NOT NULL DEFAULT false;
