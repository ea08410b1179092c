-- PostgreSQL mirror of migrations/012_whole_verdict.sql.
-- The whole verdict is stored with the band (issue 20). pending marks an
-- explanation that could not be scored: the answer is kept and scored again
-- on its next view or by `examsim rescore`. confidence (NULL when unknown,
-- for verdicts stored before this) lets the grading queue find unsure
-- scores in SQL; evidence holds the learner's words behind each concept and
-- misconception as JSON {"concepts": {id: [{"s","e"}]}, "misconceptions": …},
-- so pages show what the scorer saw without scoring again.
ALTER TABLE attempts ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
ALTER TABLE attempts ADD COLUMN confidence DOUBLE PRECISION;
ALTER TABLE attempts ADD COLUMN evidence TEXT;
ALTER TABLE exam_items ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
ALTER TABLE exam_items ADD COLUMN confidence DOUBLE PRECISION;
ALTER TABLE exam_items ADD COLUMN evidence TEXT;
ALTER TABLE class_answers ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
ALTER TABLE class_answers ADD COLUMN confidence DOUBLE PRECISION;
ALTER TABLE class_answers ADD COLUMN evidence TEXT;

-- The band is the verdict and the score is derived from it (0, 33, 67, 100):
-- old rows get the figure their band gives, so no export or query shows a
-- band beside a number a lower band could have.
UPDATE attempts SET score = (band * 100 + 1) / 3;
UPDATE exam_items SET score = (band * 100 + 1) / 3;
UPDATE class_answers SET explanation_score = (band * 100 + 1) / 3;

-- An exam answer's verdict follows its attempt's when that is rescored (or
-- its pending score is scored): found through its attempt.
CREATE INDEX exam_items_by_attempt ON exam_items (attempt_id) WHERE attempt_id IS NOT NULL;
