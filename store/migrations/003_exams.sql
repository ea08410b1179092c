-- Timed exams. The deadline is kept here so a countdown survives a reload
-- and the server, not the browser, decides when answers stop counting. The
-- seed and each item's option order are kept so an exam reads the same on
-- every visit and its answer key maps back to the question's own letters.
CREATE TABLE exams (
	id             INTEGER PRIMARY KEY,
	learner_id     INTEGER NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
	lang           TEXT NOT NULL,
	topics         TEXT NOT NULL, -- JSON array of topic ids
	concept        TEXT NOT NULL DEFAULT '',
	missed_only    INTEGER NOT NULL DEFAULT 0,
	pass_mark      INTEGER NOT NULL,
	seed           INTEGER NOT NULL,
	started_at     TEXT NOT NULL,
	deadline       TEXT NOT NULL,
	submitted_at   TEXT, -- NULL while the exam runs
	auto_submitted INTEGER NOT NULL DEFAULT 0,
	correct        INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX exams_by_learner ON exams (learner_id, id);

-- One row per question of an exam, in the order shown. choice is the
-- question's own letter; option_order lists the own letters as shown.
CREATE TABLE exam_items (
	exam_id        INTEGER NOT NULL REFERENCES exams (id) ON DELETE CASCADE,
	position       INTEGER NOT NULL,
	question_id    TEXT NOT NULL,
	option_order   TEXT NOT NULL, -- JSON array of letters
	choice         TEXT NOT NULL DEFAULT '',
	explanation    TEXT NOT NULL DEFAULT '',
	lang           TEXT NOT NULL DEFAULT '',
	flagged        INTEGER NOT NULL DEFAULT 0,
	answered_at    TEXT,
	correct        INTEGER NOT NULL DEFAULT 0,
	score          INTEGER NOT NULL DEFAULT 0,
	band           INTEGER NOT NULL DEFAULT 0,
	concepts       TEXT NOT NULL DEFAULT '[]',
	misconceptions TEXT NOT NULL DEFAULT '[]',
	rubric_version INTEGER NOT NULL DEFAULT 0,
	attempt_id     INTEGER REFERENCES attempts (id) ON DELETE SET NULL,
	PRIMARY KEY (exam_id, position)
);

-- Exam answers are attempts too, so history and progress include them.
ALTER TABLE attempts ADD COLUMN source TEXT NOT NULL DEFAULT 'practice';
ALTER TABLE attempts ADD COLUMN exam_id INTEGER REFERENCES exams (id) ON DELETE SET NULL;

-- SM-2 spaced review: one card per learner and question that was answered
-- wrongly or with a low explanation band.
CREATE TABLE review_cards (
	learner_id    INTEGER NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
	question_id   TEXT NOT NULL,
	repetitions   INTEGER NOT NULL,
	interval_days INTEGER NOT NULL,
	ease          REAL NOT NULL,
	due_at        TEXT NOT NULL,
	last_quality  INTEGER NOT NULL,
	reviewed_at   TEXT NOT NULL,
	PRIMARY KEY (learner_id, question_id)
);
