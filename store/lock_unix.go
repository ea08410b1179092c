//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// LockForServing takes the serving lock of the database at path: an
// exclusive flock on path+".lock", held until release is called or the
// process ends (the system drops it even on SIGKILL, so a crash leaves no
// stale lock behind). Live rooms are kept in one server's memory, so a
// second server on the same database would let them diverge; it gets an
// *InUseError instead. Commands that only read or make accounts (backup,
// user add) take no lock: they may run beside the server.
func LockForServing(path string) (release func() error, err error) {
	lockPath := path + ".lock"
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600) // #nosec G304 -- the operator's own --db path
	if err != nil {
		return nil, fmt.Errorf("store: lock %s: %w", lockPath, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			b := make([]byte, 32)
			n, _ := f.ReadAt(b, 0)
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b[:n])))
			return nil, &InUseError{Path: path, LockPath: lockPath, PID: pid}
		}
		return nil, fmt.Errorf("store: lock %s: %w", lockPath, err)
	}
	// Who holds it, for the message the next one gets.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() error {
		// The file stays: removing it would race a server taking it.
		unlockErr := syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return errors.Join(unlockErr, f.Close())
	}, nil
}
