package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// serveInProcess runs examsim serve in this process until ctx ends; it
// returns the output so far and a channel with the exit code.
func serveInProcess(ctx context.Context, args ...string) (*syncBuffer, <-chan int) {
	out := &syncBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), strings.NewReader(""), out, out)
	}()
	return out, code
}

// waitServing waits until a server started with serveInProcess listens,
// or exits.
func waitServing(t *testing.T, out *syncBuffer, code <-chan int) (exited bool, exit int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		select {
		case c := <-code:
			return true, c
		default:
		}
		if strings.Contains(out.String(), "examsim: serving") {
			return false, 0
		}
	}
	t.Fatalf("examsim serve neither listened nor exited in a minute:\n%s", out.String())
	return false, 0
}

// TestSecondServerOnOneDatabaseIsRefused: rooms live in one server's
// memory, so a second serve on the same database must not start; it says
// why and exits 1. The first keeps serving, and a server on another
// database starts beside it.
func TestSecondServerOnOneDatabaseIsRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "examsim.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first, firstCode := serveInProcess(ctx, "--db", db)
	if exited, c := waitServing(t, first, firstCode); exited {
		t.Fatalf("the first server exited %d:\n%s", c, first.String())
	}

	second, secondCode := serveInProcess(ctx, "--db", db)
	exited, c := waitServing(t, second, secondCode)
	if !exited {
		t.Fatalf("a second server started on the same database:\n%s", second.String())
	}
	if c != 1 || !strings.Contains(second.String(), "another examsim serve") || !strings.Contains(second.String(), db) {
		t.Errorf("the second server exited %d, want 1 with a message naming the other server and the database:\n%s", c, second.String())
	}

	// The same database through a symlink is the same database.
	link := filepath.Join(t.TempDir(), "link.db")
	if err := os.Symlink(db, link); err != nil {
		t.Fatal(err)
	}
	third, thirdCode := serveInProcess(ctx, "--db", link)
	if exited, c := waitServing(t, third, thirdCode); !exited || c != 1 {
		t.Fatalf("a server through a symlink to the database: exited %v with %d, want refused with 1:\n%s", exited, c, third.String())
	}

	other, otherCode := serveInProcess(ctx, "--db", filepath.Join(t.TempDir(), "other.db"))
	if exited, c := waitServing(t, other, otherCode); exited {
		t.Errorf("a server on another database exited %d:\n%s", c, other.String())
	}
	cancel()
	if c := <-firstCode; c != 0 {
		t.Errorf("the first server stopped with %d:\n%s", c, first.String())
	}
	<-otherCode
}
