-- Learners: anonymous until they register (username and password_hash NULL).
CREATE TABLE learners (
	id            INTEGER PRIMARY KEY,
	username      TEXT UNIQUE COLLATE NOCASE,
	password_hash TEXT,
	role          TEXT NOT NULL DEFAULT 'learner' CHECK (role IN ('learner', 'instructor', 'admin')),
	created_at    TEXT NOT NULL
);

-- One row per answered question. concepts and misconceptions hold the scorer's
-- per-concept verdicts as JSON, with the rubric version they came from, so an
-- attempt stays explainable and can be re-scored when a rubric improves.
CREATE TABLE attempts (
	id             INTEGER PRIMARY KEY,
	learner_id     INTEGER NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
	question_id    TEXT NOT NULL,
	lang           TEXT NOT NULL,
	choice         TEXT NOT NULL,
	correct        INTEGER NOT NULL,
	explanation    TEXT NOT NULL,
	score          INTEGER NOT NULL,
	band           INTEGER NOT NULL,
	concepts       TEXT NOT NULL,
	misconceptions TEXT NOT NULL,
	rubric_version INTEGER NOT NULL,
	created_at     TEXT NOT NULL
);
CREATE INDEX attempts_by_learner ON attempts (learner_id, id);

-- Keys the server signs cookies with, made once per database.
CREATE TABLE secrets (
	name  TEXT PRIMARY KEY,
	value BLOB NOT NULL
);
