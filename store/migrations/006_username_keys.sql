-- Usernames are unique ignoring case and look-alikes (examsim.NameKey):
-- "Alice", Cyrillic "Аlice" and full-width "Ａｌｉｃｅ" are one name. The key
-- of each existing account is filled in by store.Open (SQL cannot fold
-- names); an account whose key another already has keeps NULL, so nobody
-- loses an account to the new rule, and can still log in by its name.
ALTER TABLE learners ADD COLUMN username_key TEXT;
CREATE UNIQUE INDEX learners_by_username_key ON learners (username_key);
