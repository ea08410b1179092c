-- Spaced review moves from SM-2 to FSRS-6 (package fsrs). A card's memory
-- is now its stability (days until recall falls to 90%) and difficulty
-- (1-10) instead of SM-2's repetitions, interval and ease.
--
-- Existing cards keep their due date. SM-2 set the interval so that the
-- card is due when it is about to be forgotten; read as FSRS's retention
-- 0.9, that makes stability = the interval (fsrs-rs memory_state_from_sm2
-- with sm2_retention 0.9), at least 1 day. Its difficulty formula needs
-- exp and pow, which plain SQL lacks, so difficulty is its linear form at
-- a 6-day stability: D = 11 - (ease - 1) / 0.4, within 1-10 (ease 2.5 ->
-- 7.25, the floor 1.3 -> 10). The last SM-2 quality becomes the rating
-- examsim would now give: 0-1 Again, 2-3 Hard, 4 Good, 5 Easy.
CREATE TABLE review_cards_fsrs (
	learner_id  INTEGER NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
	question_id TEXT NOT NULL,
	stability   REAL NOT NULL,
	difficulty  REAL NOT NULL,
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

-- A learner's choices for their schedule: the chance of recall a card is
-- due at, and the date of their exam (YYYY-MM-DD), if they set one.
CREATE TABLE review_settings (
	learner_id        INTEGER PRIMARY KEY REFERENCES learners (id) ON DELETE CASCADE,
	desired_retention REAL NOT NULL,
	exam_date         TEXT NOT NULL DEFAULT ''
);

-- A learner's review session: a fixed list of questions walked one at a
-- time, kept here so leaving and coming back resumes it. One per learner;
-- starting another replaces it. question_ids are separated by spaces.
CREATE TABLE review_sessions (
	learner_id   INTEGER PRIMARY KEY REFERENCES learners (id) ON DELETE CASCADE,
	mode         TEXT NOT NULL,
	question_ids TEXT NOT NULL,
	position     INTEGER NOT NULL,
	seed         INTEGER NOT NULL,
	started_at   TEXT NOT NULL
);

-- An exam drawn per objective by the objectives' weights (exam.Blueprint).
ALTER TABLE exams ADD COLUMN blueprint INTEGER NOT NULL DEFAULT 0;
