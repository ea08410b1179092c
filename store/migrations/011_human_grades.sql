-- A teacher's regrade of an explanation, kept beside the automatic band in
-- attempts or class_answers (which rescoring may replace; this it never
-- touches). Where a row exists its band is the one that counts. concepts
-- holds the teacher's ticks as JSON [{"id": ..., "hit": ...}].
CREATE TABLE human_grades (
	id              INTEGER PRIMARY KEY,
	attempt_id      INTEGER REFERENCES attempts (id) ON DELETE CASCADE,
	class_answer_id INTEGER REFERENCES class_answers (id) ON DELETE CASCADE,
	band            INTEGER NOT NULL CHECK (band BETWEEN 0 AND 3),
	concepts        TEXT NOT NULL,
	grader_id       INTEGER REFERENCES learners (id) ON DELETE SET NULL,
	graded_at       TEXT NOT NULL,
	CHECK ((attempt_id IS NULL) <> (class_answer_id IS NULL))
);
CREATE UNIQUE INDEX human_grades_attempt ON human_grades (attempt_id) WHERE attempt_id IS NOT NULL;
CREATE UNIQUE INDEX human_grades_class_answer ON human_grades (class_answer_id) WHERE class_answer_id IS NOT NULL;
