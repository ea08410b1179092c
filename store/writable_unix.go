//go:build unix

package store

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// databaseWritable reports whether the server may write the database file
// and its -wal and -shm files, where they exist. It asks with access(2)
// and never opens them: closing any descriptor of the database file would
// drop this process's SQLite locks on it.
func databaseWritable(path string) bool {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := syscall.Access(p, 2 /* W_OK */); err != nil {
			if _, statErr := os.Stat(p); p != path && errors.Is(statErr, fs.ErrNotExist) {
				continue // SQLite makes it when needed
			}
			return false
		}
	}
	return true
}
