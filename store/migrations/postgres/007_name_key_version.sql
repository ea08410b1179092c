-- PostgreSQL mirror of migrations/007_name_key_version.sql.
CREATE TABLE name_key_version (version INTEGER NOT NULL);
INSERT INTO name_key_version (version) VALUES (1);
