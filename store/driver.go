package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"path/filepath"

	"github.com/mattn/go-sqlite3"
)

// driverName is the database/sql driver examsim opens SQLite with: mattn's,
// with connections that notice when a read-only database became writable.
const driverName = "examsim-sqlite3"

func init() { sql.Register(driverName, recoveringDriver{}) }

// recoveringDriver opens SQLite connections that are dropped from the pool
// once they are stale. SQLite opens a file it may not write read-only,
// silently, and such a connection stays read-only for good: a server
// started on a read-only database would fail every write until restarted,
// although the operator has fixed the file.
type recoveringDriver struct{ sqlite3.SQLiteDriver }

func (d recoveringDriver) Open(dsn string) (driver.Conn, error) {
	immutable := false
	if path := dsnPath(dsn); path != "" && !walFilesCreatable(path) {
		// A clean stop removed -wal and -shm, and the folder is read-only:
		// SQLite can read a WAL database then only as immutable. Nothing can
		// write it meanwhile (no process can make the -wal either), and the
		// connection is replaced once the folder is writable.
		dsn, immutable = immutableDSN(dsn), true
	}
	c, err := d.SQLiteDriver.Open(dsn)
	if err != nil {
		return nil, err
	}
	sc, ok := c.(*sqlite3.SQLiteConn)
	if !ok {
		_ = c.Close()
		return nil, fmt.Errorf("store: the SQLite driver returned a %T", c)
	}
	rc := &conn{SQLiteConn: sc, path: sc.GetFilename("main"), immutable: immutable}
	if immutable {
		rc.path = dsnPath(dsn)
	}
	rc.readOnly = immutable || rc.path != "" && !databaseWritable(rc.path)
	return rc, nil
}

// dsnPath is the database file of a DSN Open made ("file:/abs/path?..."),
// "" for an in-memory one.
func dsnPath(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// immutableDSN opens the database read-only and immutable, without the
// journal-mode pragma, which would need a write.
func immutableDSN(dsn string) string {
	u, _ := url.Parse(dsn) // dsnPath parsed it already
	q := u.Query()
	q.Del("_journal_mode")
	q.Set("mode", "ro")
	q.Set("immutable", "1")
	u.RawQuery = q.Encode()
	return u.String()
}

// conn is a SQLite connection that knows whether it was opened on files it
// could not write.
type conn struct {
	*sqlite3.SQLiteConn
	path      string // "" for an in-memory database
	readOnly  bool
	immutable bool // opened immutable, in a read-only folder (see Open)
}

// stale reports a connection opened read-only whose files are writable now:
// a new connection would write.
func (c *conn) stale() bool {
	return c.readOnly && databaseWritable(c.path) && (!c.immutable || walFilesCreatable(c.path))
}

// ResetSession runs before a pooled connection is reused: a stale one is
// replaced by a new connection, so the first write after the fix succeeds.
func (c *conn) ResetSession(context.Context) error {
	if c.stale() {
		return driver.ErrBadConn
	}
	return nil
}

// IsValid runs when a connection goes back to the pool: a stale one is closed.
func (c *conn) IsValid() bool { return !c.stale() }
