//go:build !linux

package pgtest

import "syscall"

// sysProcAttr runs the server as cred's user.
func sysProcAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Setpgid: true}
}
