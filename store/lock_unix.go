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
			pid := flockHolder(f)
			if pid == 0 {
				pid = readPID(pidPath)
			}
			return nil, &InUseError{Path: path, LockPath: resolved, PID: pid}
		}
		return nil, fmt.Errorf("store: lock %s: %w", resolved, err)
	}
	// Who holds it, for the message the next one gets; best effort.
	writePID(pidPath)
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

// lockFile opens the pid file without following a symlink, or blocking on
// a FIFO, planted there by whoever owns the folder, and refuses anything
// but a regular file owned by this process's user: serve run as root must
// not be made to write through it to another file.
func lockFile(pidPath string, flag int) (*os.File, error) {
	f, err := os.OpenFile(pidPath, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600) // #nosec G304 -- next to the operator's own --db path
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	st, ok := fi.Sys().(*syscall.Stat_t)
	if err != nil || !fi.Mode().IsRegular() || !ok || int(st.Uid) != os.Geteuid() {
		_ = f.Close() // refused: not ours to use
		return nil, fmt.Errorf("store: %s is not a regular file of ours", pidPath)
	}
	return f, nil
}

// writePID records this process as the lock's holder; best effort.
func writePID(pidPath string) {
	f, err := lockFile(pidPath, os.O_WRONLY|os.O_CREATE)
	if err != nil {
		return
	}
	defer f.Close()
	if f.Truncate(0) == nil {
		_, _ = f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
	}
}

// readPID is the pid in the lock file, 0 when there is none to trust.
func readPID(pidPath string) int {
	f, err := lockFile(pidPath, os.O_RDONLY)
	if err != nil {
		return 0
	}
	defer f.Close()
	b := make([]byte, 32)
	n, _ := f.Read(b)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	return pid
}

// flockHolder is the pid holding a flock on f's file, from /proc/locks
// (Linux), 0 when unknown. It finds the holder whatever name it opened the
// file by, a hard link included, where the pid file next to each name
// cannot.
func flockHolder(f *os.File) int {
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	b, err := os.ReadFile("/proc/locks")
	if err != nil {
		return 0
	}
	// "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF"
	suffix := ":" + strconv.FormatUint(uint64(st.Ino), 10)
	for _, line := range strings.Split(string(b), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[3] != "WRITE" || !strings.HasSuffix(fields[5], suffix) {
			continue
		}
		if dev := strings.Split(fields[5], ":"); len(dev) == 3 && devMatches(dev[0], dev[1], uint64(st.Dev)) {
			pid, _ := strconv.Atoi(fields[4])
			return pid
		}
	}
	return 0
}

// devMatches compares /proc/locks' hex major:minor with a stat device number.
func devMatches(major, minor string, dev uint64) bool {
	maj, err1 := strconv.ParseUint(major, 16, 32)
	min, err2 := strconv.ParseUint(minor, 16, 32)
	return err1 == nil && err2 == nil &&
		maj == ((dev>>8)&0xfff)|((dev>>32)&^uint64(0xfff)) && min == (dev&0xff)|((dev>>12)&^uint64(0xff))
}
