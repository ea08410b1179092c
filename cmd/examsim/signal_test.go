package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestSignalStopsACommandBlockedOnInput runs examsim commands that wait for
// input which never comes, and stops them with SIGINT or SIGTERM. Each must
// end with 128+signal and say why; before, the signal only cancelled a
// context these commands never look at, and they waited forever.
func TestSignalStopsACommandBlockedOnInput(t *testing.T) {
	bin := buildExamsim(t)
	db := filepath.Join(t.TempDir(), "examsim.db")
	tests := []struct {
		name string
		args []string
		sig  syscall.Signal
	}{
		{"score waiting for the explanation, SIGTERM", []string{"score", "--question", "empty-result-retry-loop", "--lang", "en"}, syscall.SIGTERM},
		{"score waiting for the explanation, SIGINT", []string{"score", "--question", "empty-result-retry-loop", "--lang", "en"}, syscall.SIGINT},
		{"user add waiting for the password, SIGTERM", []string{"user", "add", "ann", "--role", "learner", "--db", db}, syscall.SIGTERM},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, tt.args...)
			cmd.Env = cleanEnv()
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr syncBuffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			// Half an input, then wait until the command has read it: it is
			// then past its start-up and blocked reading the rest.
			if _, err := stdin.Write([]byte("It was a valid")); err != nil {
				t.Fatal(err)
			}
			fd := int(stdin.(*os.File).Fd())
			for {
				n, err := unix.IoctlGetInt(fd, unix.TIOCINQ)
				if err != nil {
					t.Fatalf("FIONREAD: %v", err)
				}
				if n == 0 {
					break
				}
				time.Sleep(10 * time.Millisecond) // polling for a state, not asserting a duration
			}
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(time.Minute): // a hang guard: the command never stopped
				cmd.Process.Kill()
				t.Fatalf("%v did not stop the command; stderr:\n%s", tt.sig, stderr.String())
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 128+int(tt.sig) {
				t.Fatalf("exit: %v, want code %d; stderr:\n%s", err, 128+int(tt.sig), stderr.String())
			}
			if !strings.Contains(stderr.String(), "examsim: stopped by "+map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[tt.sig]) {
				t.Errorf("stderr does not say why it stopped:\n%s", stderr.String())
			}
		})
	}
}
