package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/mattn/go-sqlite3"
)

// BackupInfo describes a finished backup.
type BackupInfo struct {
	Pages int   // database pages copied
	Bytes int64 // size of the backup file
}

// ErrBackupExists is returned when the backup file is there already and
// overwriting was not asked for.
var ErrBackupExists = errors.New("the backup file exists")

// Backup copies the database at dbPath into the file dest with SQLite's
// online backup API, while a server may be reading and writing it. The copy
// is one consistent snapshot: it is taken in a single step, inside one read
// transaction, which in WAL mode does not hold writers up. dest is written
// under a temporary name and renamed into place, so it is either the old
// file or a complete backup, never half of one. An existing dest is replaced
// only when overwrite is set.
//
// The database is opened without migrating it: a backup must never change
// what it copies.
func Backup(ctx context.Context, dbPath, dest string, overwrite bool) (BackupInfo, error) {
	if _, err := os.Stat(dbPath); err != nil {
		return BackupInfo{}, fmt.Errorf("store: backup: no database at %s: %w", dbPath, err)
	}
	if same(dbPath, dest) {
		return BackupInfo{}, fmt.Errorf("store: backup: %s is the database itself; pick another file", dest)
	}
	if _, err := os.Lstat(dest); err == nil && !overwrite {
		return BackupInfo{}, fmt.Errorf("store: backup: %s: %w", dest, ErrBackupExists)
	}
	src, err := openBackupSource(dbPath)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("store: backup: %w", err)
	}
	defer src.Close()

	tmpPath, err := createTempBeside(dest)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("store: backup: %w", err)
	}
	done := false
	defer func() {
		if !done {
			removeDBFiles(tmpPath)
		}
	}()
	pages, err := writeSnapshot(ctx, src, tmpPath)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("store: backup: %w", err)
	}
	if err := moveBackupInPlace(tmpPath, dest, overwrite); err != nil {
		return BackupInfo{}, fmt.Errorf("store: backup: %w", err)
	}
	done = true
	// Make the rename itself durable. The backup is complete either way, so
	// a folder that cannot be synced is no reason to report a failure.
	_ = syncFile(filepath.Dir(dest))
	st, err := os.Stat(dest)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("store: backup: %w", err)
	}
	return BackupInfo{Pages: pages, Bytes: st.Size()}, nil
}

// openBackupSource opens the database to copy, read-write but never
// created.
func openBackupSource(dbPath string) (*sql.DB, error) {
	q := url.Values{}
	q.Set("_busy_timeout", "5000")
	q.Set("mode", "rw") // never create an empty database at a mistyped path
	srcURI, err := fileURI(dbPath, q)
	if err != nil {
		return nil, err
	}
	return sql.Open("sqlite3", srcURI)
}

// createTempBeside creates an empty temporary file in dest's folder, so
// it can be renamed onto dest, and returns its path.
func createTempBeside(dest string) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".tmp-*")
	if err != nil {
		return "", err
	}
	tmpPath := tmp.Name()
	if err := tmp.Close(); err != nil {
		removeDBFiles(tmpPath)
		return "", err
	}
	return tmpPath, nil
}

// writeSnapshot copies src into the database file at path, checks the copy
// and leaves it as a single file; it returns the pages copied.
func writeSnapshot(ctx context.Context, src *sql.DB, path string) (int, error) {
	dstURI, err := fileURI(path, url.Values{"_busy_timeout": {"5000"}})
	if err != nil {
		return 0, err
	}
	dst, err := sql.Open("sqlite3", dstURI)
	if err != nil {
		return 0, err
	}
	defer dst.Close()

	pages, err := copyDatabase(ctx, dst, src)
	if err != nil {
		return 0, err
	}
	// A snapshot is only worth keeping if SQLite finds it whole.
	if err := integrityCheck(ctx, dst); err != nil {
		return 0, fmt.Errorf("the copy: %w", err)
	}
	// A WAL database copies as one; a backup must be a single file.
	if _, err := dst.ExecContext(ctx, `PRAGMA journal_mode = DELETE`); err != nil {
		return 0, err
	}
	if err := dst.Close(); err != nil {
		return 0, err
	}
	return pages, nil
}

// moveBackupInPlace syncs the finished copy at tmpPath and renames it onto
// dest.
func moveBackupInPlace(tmpPath, dest string, overwrite bool) error {
	if err := syncFile(tmpPath); err != nil {
		return err
	}
	if overwrite {
		// A journal left beside an older backup would be replayed into the new one.
		for _, suffix := range []string{"-wal", "-shm", "-journal"} {
			if err := os.Remove(dest + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return os.Rename(tmpPath, dest)
}

// copyDatabase runs the online backup from src's main database into dst's
// in one step, retrying while the source is locked.
func copyDatabase(ctx context.Context, dst, src *sql.DB) (int, error) {
	dconn, err := dst.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer dconn.Close()
	sconn, err := src.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer sconn.Close()
	pages := 0
	err = dconn.Raw(func(d any) error {
		return sconn.Raw(func(s any) error {
			dc, ok1 := d.(*sqlite3.SQLiteConn)
			sc, ok2 := s.(*sqlite3.SQLiteConn)
			if !ok1 || !ok2 {
				return errors.New("not a SQLite connection")
			}
			b, err := dc.Backup("main", sc, "main")
			if err != nil {
				return err
			}
			for {
				// -1: every page in one step, so the copy is one snapshot;
				// copying in slices would restart whenever the server writes.
				finished, err := b.Step(-1)
				if err != nil {
					return errors.Join(err, b.Close())
				}
				if finished {
					pages = b.PageCount()
					return b.Close()
				}
				select { // busy or locked: try again shortly
				case <-ctx.Done():
					return errors.Join(ctx.Err(), b.Close())
				case <-time.After(50 * time.Millisecond):
				}
			}
		})
	})
	return pages, err
}

// same reports whether two paths name the same file.
func same(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 == nil && err2 == nil {
		return os.SameFile(sa, sb)
	}
	aa, _ := filepath.Abs(a)
	ab, _ := filepath.Abs(b)
	return aa == ab
}

func syncFile(path string) error {
	f, err := os.Open(path) // #nosec G304 -- the backup being written, or its folder
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// removeDBFiles cleans up a failed backup's temporary file and journals;
// what is already gone needs no removing.
func removeDBFiles(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		_ = os.Remove(path + suffix)
	}
}
