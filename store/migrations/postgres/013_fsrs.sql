-- PostgreSQL mirror of ../013_fsrs.sql: spaced review moves from SM-2 to
-- FSRS-6. Existing cards keep their due date; stability = the SM-2
-- interval (at least 1 day) and difficulty its linear form, within 1-10
-- (see the SQLite migration for why).
CREATE TABLE review_cards_fsrs (
	learner_id  BIGINT NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
	question_id TEXT NOT NULL,
	stability   DOUBLE PRECISION NOT NULL,
	difficulty  DOUBLE PRECISION NOT NULL,
	reps        INTEGER NOT NULL,
	lapses      INTEGER NOT NULL,
	due_at      TEXT NOT NULL,
	last_rating INTEGER NOT NULL,
	reviewed_at TEXT NOT NULL,
	PRIMARY KEY (learner_id, question_id)
);
INSERT INTO review_cards_fsrs
	(learner_id, question_id, stability, difficulty, reps, lapses, due_at, last_rating, reviewed_at)
SELECT learner_id, question_id,
	CASE WHEN interval_days < 1 THEN 1.0 ELSE interval_days * 1.0 END,
	CASE
		WHEN 11 - (ease - 1) / 0.4 > 10 THEN 10.0
		WHEN 11 - (ease - 1) / 0.4 < 1 THEN 1.0
		ELSE 11 - (ease - 1) / 0.4
	END,
	repetitions, 0, due_at,
	CASE WHEN last_quality <= 1 THEN 1 WHEN last_quality <= 3 THEN 2 WHEN last_quality = 4 THEN 3 ELSE 4 END,
	reviewed_at
FROM review_cards;
DROP TABLE review_cards;
ALTER TABLE review_cards_fsrs RENAME TO review_cards;
ALTER TABLE review_cards RENAME CONSTRAINT review_cards_fsrs_pkey TO review_cards_pkey;

CREATE TABLE review_settings (
	learner_id        BIGINT PRIMARY KEY REFERENCES learners (id) ON DELETE CASCADE,
	desired_retention DOUBLE PRECISION NOT NULL,
	exam_date         TEXT NOT NULL DEFAULT ''
);

CREATE TABLE review_sessions (
	learner_id   BIGINT PRIMARY KEY REFERENCES learners (id) ON DELETE CASCADE,
	mode         TEXT NOT NULL,
	question_ids TEXT NOT NULL,
	position     INTEGER NOT NULL,
	seed         BIGINT NOT NULL,
	started_at   TEXT NOT NULL
);

ALTER TABLE exams ADD COLUMN blueprint INTEGER NOT NULL DEFAULT 0;
