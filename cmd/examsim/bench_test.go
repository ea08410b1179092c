package main

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/questions/banktest"
	"github.com/examsim/examsim/sandbox"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web"
)

// BenchmarkStartup is serve's start-up up to the point it listens: load and
// check the bank from disk (the rubrics left to Bank.Complete, which serve
// runs once it listens; BenchmarkComplete in questions times that), load the catalogs, open a new database (creating
// it and running every migration) and build the server. The embedded bank,
// and banks of 200 and 1,000 questions (1,000 and 5,000 files) copied from
// it. `examsim bench-web` times the same for real processes, up to the
// first /healthz.
func BenchmarkStartup(b *testing.B) {
	src, _ := questions.Embedded()
	replicated := func(n int) string {
		bank, err := banktest.Replicate(src, n)
		if err != nil {
			b.Fatal(err)
		}
		dir := b.TempDir()
		if err := banktest.WriteDir(dir, bank); err != nil {
			b.Fatal(err)
		}
		return dir
	}
	for _, bench := range []struct{ name, dir string }{
		{"embedded", ""}, {"200-questions-1000-files", replicated(200)}, {"1000-questions-5000-files", replicated(1000)},
	} {
		b.Run(bench.name, func(b *testing.B) {
			dbDir := b.TempDir()
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				n++
				startForBenchmark(b, bench.dir, filepath.Join(dbDir, fmt.Sprintf("%d.db", n)))
			}
		})
	}
}

// startForBenchmark does what runServe does before it listens.
func startForBenchmark(b *testing.B, bankDir, dbPath string) {
	ctx := context.Background()
	bank, problems := loadBankForServing(bankDir)
	if len(problems) > 0 {
		b.Fatal(problems.Error())
	}
	catalog, err := i18n.Load()
	if err != nil {
		b.Fatal(err)
	}
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	key, err := db.Secret(ctx, "cookie")
	if err != nil {
		b.Fatal(err)
	}
	services := store.NewServices(db)
	hub := classroom.NewHub(classroom.Config{Store: services.Classes, Bank: bank})
	defer hub.Close()
	web.New(web.Config{Services: services, Bank: bank, Catalog: catalog, CookieKey: key, Sandbox: sandbox.New(), Classroom: hub})
}
