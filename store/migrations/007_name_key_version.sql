-- The version of examsim.NameKey that computed the saved username keys.
-- store.Open recomputes every key when examsim.NameKeyVersion differs, so a
-- change to the look-alike table reaches older accounts. Keys made before
-- this table existed came from version 1.
CREATE TABLE name_key_version (version INTEGER NOT NULL);
INSERT INTO name_key_version (version) VALUES (1);
