-- Browser sessions, kept server-side so that logging out, or a timeout, ends
-- them for good. The browser's cookie holds a random token; only its SHA-256
-- is stored, so a copy of the database gives no one a way in.
CREATE TABLE sessions (
	token_hash   BLOB PRIMARY KEY,
	learner_id   INTEGER NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
	created_at   TEXT NOT NULL,
	last_seen_at TEXT NOT NULL,
	-- the earlier of the idle and the absolute timeout, for pruning
	expires_at   TEXT NOT NULL
);
CREATE INDEX sessions_by_learner ON sessions (learner_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);
