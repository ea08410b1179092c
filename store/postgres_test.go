package store_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/pgtest"
	"github.com/examsim/examsim/store"
)

// Instances that start together on one database migrate it once: the
// others wait on the advisory lock and find the work done.
func TestPostgresInstancesMigrateOnce(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	const instances = 4
	var wg sync.WaitGroup
	errs := make([]error, instances)
	dbs := make([]*store.DB, instances)
	for i := range instances {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dbs[i], errs[i] = store.Open(ctx, url)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("instance %d: %v", i, err)
			continue
		}
		defer dbs[i].Close()
	}
	if t.Failed() {
		return
	}
	if n := dbs[0].CountRows(t, "migrations"); n == 0 {
		t.Fatal("no migration recorded")
	}
	if got := dbs[0].QueryString(t, `SELECT count(*) - count(DISTINCT name) FROM migrations`); got != "0" {
		t.Errorf("%s migrations applied twice", got)
	}
	if _, err := store.NewLearnerService(dbs[1]).CreateAnonymous(ctx); err != nil {
		t.Fatal(err)
	}
}

// A database a newer examsim migrated is refused with what to do, before
// anything is written to it.
func TestPostgresRefusesANewerSchema(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	db, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	db.ExecSQL(t, `INSERT INTO migrations (name, applied_at) VALUES ('migrations/postgres/999_future.sql', '2030-01-01T00:00:00Z')`)
	db.Close()
	_, err = store.Open(ctx, url)
	var newer *store.SchemaTooNewError
	if !errors.As(err, &newer) {
		t.Fatalf("opened a newer schema: %v", err)
	}
	if !strings.Contains(err.Error(), "999_future") || !strings.Contains(err.Error(), "newer examsim") {
		t.Errorf("the error does not say what is newer and what to do: %v", err)
	}
}

// Each way of not reaching the database says what to fix.
func TestPostgresConnectionErrors(t *testing.T) {
	url := pgtest.URL(t) // the cluster is up, so only the URL is wrong below
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := closed.Addr().(*net.TCPAddr).Port
	closed.Close()
	base := url[:strings.LastIndex(url, "/")]
	for _, tc := range []struct{ name, url, want string }{
		{"malformed", "postgres://examsim@127.0.0.1:notaport/x", "not a valid PostgreSQL URL"},
		{"no such database", base + "/nosuchdb?sslmode=disable", "create it first"},
		{"unreachable", fmt.Sprintf("postgres://examsim:s3cret@127.0.0.1:%d/x?sslmode=disable&connect_timeout=2", port), "check that the server is running"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := store.Open(context.Background(), tc.url)
			if err == nil {
				db.Close()
				t.Fatal("opened")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %q, want it to say %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("the error shows the password: %v", err)
			}
		})
	}
}

// While PostgreSQL is down a write fails as unavailable (worth a retry, not
// an internal error), and once it is back writes succeed again with no
// restart of examsim.
func TestPostgresRecoversAfterARestart(t *testing.T) {
	c := pgtest.Private(t)
	ctx := context.Background()
	db, err := store.Open(ctx, c.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ls := store.NewLearnerService(db)
	if _, err := ls.CreateAnonymous(ctx); err != nil {
		t.Fatal(err)
	}
	unavailable := func(err error) bool {
		var e *examsim.Error
		return errors.As(err, &e) && e.Code == examsim.EUNAVAILABLE
	}
	if err := c.Halt(); err != nil {
		t.Fatal(err)
	}
	// The first writes meet the connections the shutdown ended, the later
	// ones a server that refuses connections.
	for i := range 3 {
		if _, err := ls.CreateAnonymous(ctx); !unavailable(err) {
			t.Errorf("write %d while PostgreSQL is down: %v, want EUNAVAILABLE", i, err)
		} else {
			t.Logf("write %d while PostgreSQL is down: %v", i, err)
		}
	}
	if err := c.Resume(); err != nil {
		t.Fatal(err)
	}
	// Connections the restart broke are replaced as they fail.
	for try := 0; ; try++ {
		_, err := ls.CreateAnonymous(ctx)
		if err == nil {
			break
		}
		if !unavailable(err) {
			t.Fatalf("a write after PostgreSQL came back: %v, want EUNAVAILABLE or success", err)
		}
		if try == 30 {
			t.Fatalf("writes still fail 30 tries after PostgreSQL came back: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
