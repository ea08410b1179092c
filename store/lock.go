package store

import "fmt"

// InUseError says that another server holds a database's serving lock.
type InUseError struct {
	Path, LockPath string
	PID            int // the holder's process id, 0 when unknown
}

func (e *InUseError) Error() string {
	who := "another examsim serve"
	if e.PID > 0 {
		who = fmt.Sprintf("another examsim serve (pid %d)", e.PID)
	}
	return fmt.Sprintf("%s is using the database %s (it holds %s)", who, e.Path, e.LockPath)
}
