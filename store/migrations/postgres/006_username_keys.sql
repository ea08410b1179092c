-- PostgreSQL mirror of migrations/006_username_keys.sql.
ALTER TABLE learners ADD COLUMN username_key TEXT;
CREATE UNIQUE INDEX learners_by_username_key ON learners (username_key);
