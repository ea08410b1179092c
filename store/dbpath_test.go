package store_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/examsim/examsim/store"
)

// TestDatabasePathIsAPath: --db is a file name, whatever characters it
// has; none of them may be read as part of a SQLite URI (a "?" starting
// parameters, a "#" a fragment, a "%" an escape).
func TestDatabasePathIsAPath(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"x?y#z.db", "100%41.db", "a b&c=d.db", "mode=memory?.db", "#start.db"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			db, err := store.Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := store.NewLearnerService(db).CreateAnonymous(ctx); err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			entries, _ := os.ReadDir(dir)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			sort.Strings(names)
			if len(names) != 1 || names[0] != name {
				t.Fatalf("opening %q made %q, want just that file", name, names)
			}
			backup := filepath.Join(dir, "copy of "+name)
			if _, err := store.Backup(ctx, path, backup, false); err != nil {
				t.Fatalf("backup: %v", err)
			}
			if _, err := os.Stat(backup); err != nil {
				t.Fatalf("the backup is not at %q: %v", backup, err)
			}
		})
	}
}
