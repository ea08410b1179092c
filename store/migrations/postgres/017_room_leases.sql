-- PostgreSQL mirror of migrations/017_room_leases.sql: which instance owns
-- each live room, until when, and under which epoch its writes are fenced.
CREATE TABLE room_leases (
	run_id     BIGINT PRIMARY KEY REFERENCES class_sessions (id) ON DELETE CASCADE,
	instance   TEXT NOT NULL,
	address    TEXT NOT NULL,
	epoch      BIGINT NOT NULL,
	expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX room_leases_by_instance ON room_leases (instance);
