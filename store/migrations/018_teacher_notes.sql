-- A teacher's note back to the learner with a regrade, shown beside the
-- regraded band; '' when they wrote none.
ALTER TABLE human_grades ADD COLUMN note TEXT NOT NULL DEFAULT '';
