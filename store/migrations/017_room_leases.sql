-- Which instance owns each live room when many instances serve one
-- PostgreSQL database (README, "When one machine is not enough"). SQLite is
-- served by one process and never reads it; the table is here so both
-- dialects keep one schema.
CREATE TABLE room_leases (
	run_id     INTEGER PRIMARY KEY REFERENCES class_sessions (id) ON DELETE CASCADE,
	instance   TEXT NOT NULL,
	address    TEXT NOT NULL,
	epoch      INTEGER NOT NULL,
	expires_at TEXT NOT NULL
);
