//go:build unix

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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

// walFilesCreatable reports whether SQLite can read the WAL database at path
// normally: its -shm file is there, or its folder is writable so SQLite can
// make it.
func walFilesCreatable(path string) bool {
	if _, err := os.Stat(path + "-shm"); err == nil {
		return true
	}
	if _, err := os.Stat(path); err != nil {
		return true // a new database: Open makes it, or says why not
	}
	return syscall.Access(filepath.Dir(path), 2 /* W_OK */) == nil
}

// unwritableFile names the first of the database's files (itself, -wal,
// -shm) or its folder that exists and this user cannot write, with its
// owner; "" when every one can be written.
func unwritableFile(path string) (file, owner string) {
	for _, p := range []string{path, path + "-wal", path + "-shm", filepath.Dir(path)} {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if syscall.Access(p, 2 /* W_OK */) == nil {
			continue
		}
		owner = "another user"
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			owner = fmt.Sprintf("uid %d", st.Uid)
		}
		return p, owner
	}
	return "", ""
}

func euid() int { return os.Geteuid() }
