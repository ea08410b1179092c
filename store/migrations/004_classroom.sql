-- Classroom quizzes: an instructor's reusable quizzes, the sessions that run
-- them, the students who join, and their answers. Roles live in learners.role.

CREATE TABLE class_quizzes (
	id                   INTEGER PRIMARY KEY,
	owner_id             INTEGER NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
	title                TEXT NOT NULL,
	question_ids         TEXT NOT NULL, -- JSON array, in asking order
	seconds_per_question INTEGER NOT NULL,
	scoring              TEXT NOT NULL CHECK (scoring IN ('correctness', 'speed')),
	leaderboard          INTEGER NOT NULL,
	explanations         TEXT NOT NULL CHECK (explanations IN ('required', 'optional', 'off')),
	created_at           TEXT NOT NULL,
	updated_at           TEXT NOT NULL
);
CREATE INDEX class_quizzes_by_owner ON class_quizzes (owner_id, id);

-- A session copies its quiz's settings so editing the quiz later never
-- changes a room that is running or the results of one that ran.
CREATE TABLE class_sessions (
	id                   INTEGER PRIMARY KEY,
	quiz_id              INTEGER NOT NULL REFERENCES class_quizzes (id) ON DELETE CASCADE,
	host_id              INTEGER NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
	code                 TEXT NOT NULL,
	mode                 TEXT NOT NULL CHECK (mode IN ('live', 'assignment')),
	title                TEXT NOT NULL,
	question_ids         TEXT NOT NULL,
	seconds_per_question INTEGER NOT NULL,
	scoring              TEXT NOT NULL,
	leaderboard          INTEGER NOT NULL,
	explanations         TEXT NOT NULL,
	deadline             TEXT,
	locked               INTEGER NOT NULL DEFAULT 0,
	phase                TEXT NOT NULL,
	question_index       INTEGER NOT NULL DEFAULT -1,
	question_started_at  TEXT,
	created_at           TEXT NOT NULL,
	ended_at             TEXT
);
-- A join code names one running session; ended sessions free theirs.
CREATE UNIQUE INDEX class_sessions_running_code ON class_sessions (code) WHERE ended_at IS NULL;
CREATE INDEX class_sessions_by_host ON class_sessions (host_id, id);

CREATE TABLE class_players (
	id           INTEGER PRIMARY KEY,
	session_id   INTEGER NOT NULL REFERENCES class_sessions (id) ON DELETE CASCADE,
	nickname     TEXT NOT NULL,
	nickname_key TEXT NOT NULL, -- folded form: nicknames are unique in a room ignoring case and look-alikes
	lang         TEXT NOT NULL,
	learner_id   INTEGER REFERENCES learners (id) ON DELETE SET NULL,
	rejoin_hash  BLOB NOT NULL,
	kicked       INTEGER NOT NULL DEFAULT 0,
	joined_at    TEXT NOT NULL,
	UNIQUE (session_id, nickname_key)
);

CREATE TABLE class_answers (
	id                INTEGER PRIMARY KEY,
	session_id        INTEGER NOT NULL REFERENCES class_sessions (id) ON DELETE CASCADE,
	player_id         INTEGER NOT NULL REFERENCES class_players (id) ON DELETE CASCADE,
	question_index    INTEGER NOT NULL,
	question_id       TEXT NOT NULL,
	lang              TEXT NOT NULL,
	choice            TEXT NOT NULL,
	correct           INTEGER NOT NULL,
	explanation       TEXT NOT NULL,
	explanation_score INTEGER NOT NULL,
	band              INTEGER NOT NULL,
	concepts          TEXT NOT NULL,
	misconceptions    TEXT NOT NULL,
	rubric_version    INTEGER NOT NULL,
	elapsed_ms        INTEGER NOT NULL,
	points            INTEGER NOT NULL,
	created_at        TEXT NOT NULL,
	UNIQUE (player_id, question_index)
);
CREATE INDEX class_answers_by_session ON class_answers (session_id, question_index);
