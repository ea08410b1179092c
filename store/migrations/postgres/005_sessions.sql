-- PostgreSQL mirror of migrations/005_sessions.sql.
CREATE TABLE sessions (
	token_hash   BYTEA PRIMARY KEY,
	learner_id   BIGINT NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
	created_at   TEXT NOT NULL,
	last_seen_at TEXT NOT NULL,
	expires_at   TEXT NOT NULL
);
CREATE INDEX sessions_by_learner ON sessions (learner_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);
