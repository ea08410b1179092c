package pgtest

import "syscall"

// sysProcAttr runs the server as cred's user, and kills it if this test
// binary dies without stopping it, so no cluster outlives its tests.
func sysProcAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT, Setpgid: true}
}
