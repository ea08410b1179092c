package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/examsim/examsim"
)

// RoomLeaseService keeps which instance owns each live room, on PostgreSQL
// (SQLite is served by one process, which owns every room). Expiry is timed
// by PostgreSQL's clock, so the instances' clocks need not agree.
type RoomLeaseService struct{ db *DB }

// NewRoomLeaseService returns the lease service of db, or nil on SQLite.
func NewRoomLeaseService(db *DB) *RoomLeaseService {
	if db.dialect != postgres {
		return nil
	}
	return &RoomLeaseService{db: db}
}

// ClaimRoom takes the lease when it is free or expired (the epoch grows by
// one: a new owner) or renews it when instance holds it already, in one
// statement, so two instances claiming at once cannot both win.
func (s *RoomLeaseService) ClaimRoom(ctx context.Context, runID int64, instance, address string, ttl time.Duration) (examsim.RoomLease, error) {
	l := examsim.RoomLease{RunID: runID}
	err := s.db.db.QueryRowContext(ctx, `INSERT INTO room_leases (run_id, instance, address, epoch, expires_at)
		VALUES (?, ?, ?, 1, clock_timestamp() + ? * interval '1 millisecond')
		ON CONFLICT (run_id) DO UPDATE SET instance = EXCLUDED.instance, address = EXCLUDED.address,
			epoch = CASE WHEN room_leases.instance = EXCLUDED.instance THEN room_leases.epoch ELSE room_leases.epoch + 1 END,
			expires_at = EXCLUDED.expires_at
		WHERE room_leases.instance = EXCLUDED.instance OR room_leases.expires_at < clock_timestamp()
		RETURNING instance, address, epoch, expires_at`,
		runID, instance, address, ttl.Milliseconds()).Scan(&l.Instance, &l.Address, &l.Epoch, &l.Expires)
	if errors.Is(err, sql.ErrNoRows) { // another instance holds it
		err = s.db.db.QueryRowContext(ctx, `SELECT instance, address, epoch, expires_at FROM room_leases WHERE run_id = ?`,
			runID).Scan(&l.Instance, &l.Address, &l.Epoch, &l.Expires)
	}
	if isForeignKey(err) {
		return l, examsim.E(examsim.ENOTFOUND, "class.error_session_not_found")
	}
	return l, dbError(err)
}

// RenewRooms extends instance's unexpired leases; an expired one may have
// been taken already, and is not the caller's to extend.
func (s *RoomLeaseService) RenewRooms(ctx context.Context, instance string, ttl time.Duration) ([]int64, error) {
	// The rows are locked in run order, as the batch writers lock them
	// (fenceBatch): a plain UPDATE locks in scan order, and a heartbeat and
	// a batch sharing two rooms could then each wait for the other.
	rows, err := s.db.db.QueryContext(ctx, `UPDATE room_leases SET expires_at = clock_timestamp() + ? * interval '1 millisecond'
		WHERE run_id IN (SELECT run_id FROM room_leases WHERE instance = ? AND expires_at >= clock_timestamp()
			ORDER BY run_id FOR NO KEY UPDATE) RETURNING run_id`, ttl.Milliseconds(), instance)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, dbError(err)
		}
		ids = append(ids, id)
	}
	return ids, dbError(rows.Err())
}

// ReleaseRooms expires instance's leases now, so the next request for one
// of its rooms, on any instance, takes it over without waiting.
func (s *RoomLeaseService) ReleaseRooms(ctx context.Context, instance string) error {
	_, err := s.db.db.ExecContext(ctx, `UPDATE room_leases SET expires_at = clock_timestamp() - interval '1 second' WHERE instance = ?`, instance)
	return dbError(err)
}
