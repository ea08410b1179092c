-- Questions teachers write or import (issue 26). Each belongs to its author
-- and may be shared with the instance's other instructors. Every version's
-- content is kept whole, as JSON in body, so an answer scored against a
-- version (attempts.rubric_version, class_answers) stays explainable after
-- the question is edited or deleted; deleting only sets deleted_at.
CREATE TABLE authored_questions (
	id         TEXT PRIMARY KEY,
	author_id  INTEGER REFERENCES learners (id) ON DELETE SET NULL,
	shared     INTEGER NOT NULL DEFAULT 0 CHECK (shared IN (0, 1)),
	version    INTEGER NOT NULL CHECK (version >= 1),
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	deleted_at TEXT
);
CREATE INDEX authored_questions_author ON authored_questions (author_id);

CREATE TABLE authored_question_versions (
	question_id TEXT NOT NULL REFERENCES authored_questions (id),
	version     INTEGER NOT NULL,
	langs       TEXT NOT NULL,
	body        TEXT NOT NULL,
	editor_id   INTEGER REFERENCES learners (id) ON DELETE SET NULL,
	created_at  TEXT NOT NULL,
	PRIMARY KEY (question_id, version)
);

-- Sample explanations a teacher saved in the rubric workbench: the
-- question's own regression set, with the band each should get.
CREATE TABLE authored_question_samples (
	id          INTEGER PRIMARY KEY,
	question_id TEXT NOT NULL REFERENCES authored_questions (id),
	position    INTEGER NOT NULL,
	lang        TEXT NOT NULL,
	text        TEXT NOT NULL,
	expected    INTEGER NOT NULL CHECK (expected BETWEEN 0 AND 3)
);
CREATE INDEX authored_question_samples_question ON authored_question_samples (question_id, position);
