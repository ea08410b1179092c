-- A learner's flag on an automatic explanation score they think is wrong.
-- One flag per explanation (flagging again refreshes it); exactly one of
-- attempt_id and class_answer_id names the explanation. resolved_at is set
-- when a teacher regrades it, and cleared if the learner flags it again.
CREATE TABLE score_flags (
	id              INTEGER PRIMARY KEY,
	learner_id      INTEGER NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
	attempt_id      INTEGER REFERENCES attempts (id) ON DELETE CASCADE,
	class_answer_id INTEGER REFERENCES class_answers (id) ON DELETE CASCADE,
	comment         TEXT NOT NULL DEFAULT '',
	created_at      TEXT NOT NULL,
	resolved_at     TEXT,
	CHECK ((attempt_id IS NULL) <> (class_answer_id IS NULL))
);
CREATE UNIQUE INDEX score_flags_attempt ON score_flags (attempt_id) WHERE attempt_id IS NOT NULL;
CREATE UNIQUE INDEX score_flags_class_answer ON score_flags (class_answer_id) WHERE class_answer_id IS NOT NULL;
CREATE INDEX score_flags_open ON score_flags (resolved_at, id);
