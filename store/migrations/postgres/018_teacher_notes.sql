-- PostgreSQL mirror of migrations/018_teacher_notes.sql.
ALTER TABLE human_grades ADD COLUMN note TEXT NOT NULL DEFAULT '';
