package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/examsim/examsim/store"
)

// TestServeSaysWhatIsWrongWithTheDatabase: a database serve cannot open is
// reported for what it is, with what to do, not as a folder to check.
func TestServeSaysWhatIsWrongWithTheDatabase(t *testing.T) {
	ctx := context.Background()
	t.Run("corrupt", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "examsim.db")
		if err := os.WriteFile(path, bytes.Repeat([]byte("not a database, a damaged file "), 200), 0o600); err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		if db, release, code := openServingDB(ctx, path, &stderr); code == 0 {
			db.Close()
			release()
			t.Fatal("serve opened a damaged database")
		}
		msg := stderr.String()
		for _, want := range []string{path, "backup", "integrity_check"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the message lacks %q:\n%s", want, msg)
			}
		}
		if strings.Contains(msg, "writable") {
			t.Errorf("the message blames the folder:\n%s", msg)
		}
	})
	t.Run("read-only -wal and -shm", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("files root cannot write need chattr, as root")
		}
		path := filepath.Join(t.TempDir(), "examsim.db")
		db, err := store.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		// Left by a server run as another user, which this one cannot write.
		for _, f := range []string{path + "-wal", path + "-shm"} {
			if err := os.WriteFile(f, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("chattr", "+i", f).CombinedOutput(); err != nil {
				t.Skipf("chattr +i: %v %s", err, out)
			}
			t.Cleanup(func() { _ = exec.Command("chattr", "-i", f).Run() })
		}
		var stderr bytes.Buffer
		if db2, release, code := openServingDB(ctx, path, &stderr); code == 0 {
			db2.Close()
			release()
			t.Skip("SQLite opened it: nothing to report")
		}
		msg := stderr.String()
		if !strings.Contains(msg, path+"-") || !strings.Contains(msg, "owner") || strings.Contains(msg, "folder exists") {
			t.Errorf("the message should name the -wal or -shm file and say to fix its owner:\n%s", msg)
		}
	})
}
