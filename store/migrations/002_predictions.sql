-- Sandbox predictions: before an agent's move is shown, the learner may say
-- what it should do; each guess is scored against the lessons' policy and
-- kept like an attempt.
CREATE TABLE predictions (
	id         INTEGER PRIMARY KEY,
	learner_id INTEGER NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
	scenario   TEXT NOT NULL,
	agent      TEXT NOT NULL,
	generic    INTEGER NOT NULL,
	decision   INTEGER NOT NULL,
	predicted  TEXT NOT NULL,
	expected   TEXT NOT NULL,
	correct    INTEGER NOT NULL,
	created_at TEXT NOT NULL
);
CREATE INDEX predictions_by_learner ON predictions (learner_id, id);
