package store

import (
	"errors"
	"fmt"

	"github.com/mattn/go-sqlite3"
)

// OpenAdvice tells the operator what to do about a database that Open or
// LockForServing refused, from what SQLite found: a damaged file, or one of
// the database's files this user cannot write, or else (a missing folder,
// say) the folder and the path to check.
func OpenAdvice(path string, err error) string {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrNotADB, sqlite3.ErrCorrupt:
			return fmt.Sprintf("The file is damaged, or is not an examsim database. Restore it from a backup (one taken with examsim backup: copy it over %s while no server runs), "+
				"or see what SQLite finds with: sqlite3 %s 'PRAGMA integrity_check'. Or pass --db with another file.", path, path)
		case sqlite3.ErrReadonly, sqlite3.ErrPerm, sqlite3.ErrCantOpen, sqlite3.ErrIoErr:
			if f, owner := unwritableFile(path); f != "" {
				return fmt.Sprintf("%s cannot be written by this user (uid %d); its owner is %s. Give it to the user serve runs as (chown), make it writable (chmod u+w; chattr -i if it is immutable), "+
					"or, after a clean stop of every server, remove a -wal or -shm file left by another user.", f, euid(), owner)
			}
		}
	}
	return "Check that its folder exists and is writable, or pass --db."
}
