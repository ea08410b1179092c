-- PostgreSQL mirror of migrations/008_attempt_class.sql.
ALTER TABLE attempts ADD COLUMN class_title TEXT NOT NULL DEFAULT '';
