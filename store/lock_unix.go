//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// LockForServing takes the serving lock of the database at path: an
// exclusive flock on the database file itself (its inode, so a symlink or a
// hard link to it meets the same lock), through a read-only descriptor held
// until release is called or the process ends (the system drops it even on
// SIGKILL, so a crash leaves no stale lock behind). Live rooms are kept in
// one server's memory, so a second server on the same database would let
// them diverge; it gets an *InUseError instead. Commands that only read or
// make accounts (backup, user add) take no lock: they may run beside the
// server.
//
// flock locks are independent of the POSIX locks SQLite takes, but closing
// any descriptor of the file drops this process's POSIX locks, so release
// must run after the database is closed. A database file not there yet is
// created empty (SQLite starts a new database in it). The holder's pid is
// written to path+".lock" when that can be done; a read-only folder or lock
// file costs only the pid in the refusal message.
func LockForServing(path string) (release func() error, err error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600) // #nosec G304 -- the operator's own --db path
		if err != nil {
			return nil, fmt.Errorf("store: create %s: %w", path, err)
		}
		if err := f.Close(); err != nil {
			return nil, fmt.Errorf("store: create %s: %w", path, err)
		}
	}
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, fmt.Errorf("store: lock %s: %w", path, err)
	}
	f, err := os.Open(resolved) // #nosec G304 -- the operator's own --db path
	if err != nil {
		return nil, fmt.Errorf("store: lock %s: %w", resolved, err)
	}
	pidPath := resolved + ".lock"
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		keepOpen(f)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			b, _ := os.ReadFile(pidPath) // #nosec G304 -- next to the operator's own --db path
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			return nil, &InUseError{Path: path, LockPath: resolved, PID: pid}
		}
		return nil, fmt.Errorf("store: lock %s: %w", resolved, err)
	}
	// Who holds it, for the message the next one gets; best effort.
	_ = os.WriteFile(pidPath, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600) // #nosec G306 -- a pid
	return func() error {
		unlockErr := syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return errors.Join(unlockErr, f.Close())
	}, nil
}

// refused holds the descriptors of locks this process was refused: closing
// one would drop the POSIX locks SQLite holds on the same file in this
// process (a second server started in-process, as tests do). A refused
// server exits, so these are few.
var refused struct {
	sync.Mutex
	files []*os.File
}

func keepOpen(f *os.File) {
	refused.Lock()
	defer refused.Unlock()
	refused.files = append(refused.files, f)
}
