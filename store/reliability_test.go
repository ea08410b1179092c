package store_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// TestDurabilitySettings checks that every connection of the pool, not just
// the first, runs in WAL mode with synchronous=FULL: the setting that makes
// an acknowledged commit survive a power cut (see Open).
func TestDurabilitySettings(t *testing.T) {
	db := MustOpenDB(t)
	for _, c := range []struct{ pragma, want string }{{"synchronous", "2"}, {"journal_mode", "wal"}} {
		got := db.ConnPragmas(t, c.pragma, 4)
		for i, v := range got {
			if v != c.want {
				t.Errorf("connection %d: PRAGMA %s = %s, want %s", i, c.pragma, v, c.want)
			}
		}
	}
}

func attemptFor(learnerID int64, text string) *examsim.Attempt {
	return &examsim.Attempt{LearnerID: learnerID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.English, Choice: "B", Explanation: text, Verdict: examsim.Verdict{Band: 2, Concepts: []examsim.ConceptHit{{ID: "validation", Hit: true}}, Misconceptions: []string{}, RubricVersion: 1}}}
}

func wantStorageError(t *testing.T, err error, message string) {
	t.Helper()
	var e *examsim.Error
	if !errors.As(err, &e) || e.Code != examsim.EUNAVAILABLE || e.MessageID != message {
		t.Fatalf("error = %v; want EUNAVAILABLE %s", err, message)
	}
	if !e.Code.Retryable() || e.Code.Category() != examsim.Transient {
		t.Errorf("%s is not transient and retryable", message)
	}
	if e.Detail == "" {
		t.Errorf("%s carries no detail for the log", message)
	}
}

// TestDiskFull fills the database until SQLite itself answers SQLITE_FULL
// (max_page_count stands in for the disk), then checks that users are told
// storage_full, that a failed write leaves nothing half-done, that nothing
// saved before is lost, and that writes work again once there is room.
func TestDiskFull(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	ls, as, cs := store.NewLearnerService(db), store.NewAttemptService(db), store.NewClassroomService(db)
	learner, err := ls.CreateAnonymous(ctx)
	if err != nil {
		t.Fatal(err)
	}
	host, _ := ls.CreateAccount(ctx, "host_full", "long enough pass", examsim.RoleInstructor)
	quiz := &examsim.Quiz{OwnerID: host.ID, Title: "q", QuestionIDs: []string{"malformed-order-id"}, SecondsPerQuestion: 20,
		Scoring: examsim.ScoreCorrectness, Explanations: examsim.ExplainOptional}
	if err := cs.CreateQuiz(ctx, quiz); err != nil {
		t.Fatal(err)
	}
	run := &examsim.ClassRun{HostID: host.ID, Mode: examsim.ModeLive, Quiz: *quiz, Phase: examsim.PhaseQuestion}
	if err := cs.CreateRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	var players []*examsim.Player
	for i := range 3 {
		p := &examsim.Player{RunID: run.ID, Nickname: fmt.Sprintf("p%d", i), Lang: examsim.English, RejoinHash: []byte{byte(i)}}
		if err := cs.CreatePlayer(ctx, p); err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}

	if err := db.LimitPages(ctx, 2); err != nil {
		t.Fatal(err)
	}
	var saved []*examsim.Attempt
	text := strings.Repeat("the disk fills up; ", 40)
	for len(saved) < 10000 {
		a := attemptFor(learner.ID, fmt.Sprintf("%d %s", len(saved), text))
		if err = as.CreateAttempt(ctx, a); err != nil {
			break
		}
		saved = append(saved, a)
	}
	if err == nil || len(saved) == 0 {
		t.Fatalf("after %d attempts: no SQLITE_FULL (err %v)", len(saved), err)
	}
	wantStorageError(t, err, "error.storage_full")

	// A classroom batch fails whole: no answer of it is kept.
	batch := make([]*examsim.ClassAnswer, len(players))
	for i, p := range players {
		batch[i] = &examsim.ClassAnswer{RunID: run.ID, PlayerID: p.ID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.English, Choice: "A", Explanation: text + text, Verdict: examsim.Verdict{Concepts: []examsim.ConceptHit{}, Misconceptions: []string{}}}}
	}
	wantStorageError(t, cs.SaveAnswers(ctx, batch), "error.storage_full")
	if got, _ := cs.ListAnswers(ctx, run.ID); len(got) != 0 {
		t.Errorf("a failed batch left %d answers behind", len(got))
	}
	// Reading still works while full.
	if _, err := as.FindAttempt(ctx, saved[0].ID); err != nil {
		t.Errorf("reading while full: %v", err)
	}

	// Space returns: the same writes succeed, with no restart.
	if err := db.LimitPages(ctx, -1); err != nil {
		t.Fatal(err)
	}
	if err := cs.SaveAnswers(ctx, batch); err != nil {
		t.Fatalf("after space returned: %v", err)
	}
	if got, _ := cs.ListAnswers(ctx, run.ID); len(got) != len(batch) {
		t.Errorf("stored %d answers after recovery, want %d", len(got), len(batch))
	}
	extra := attemptFor(learner.ID, "after recovery")
	if err := as.CreateAttempt(ctx, extra); err != nil {
		t.Fatalf("after space returned: %v", err)
	}
	want := append(saved, extra)
	var got []*examsim.Attempt
	as.EachAttempt(ctx, func(a *examsim.Attempt) error { got = append(got, a); return nil })
	if diff := cmp.Diff(want, got, cmpopts.EquateApproxTime(0)); diff != "" {
		t.Errorf("attempts after a full disk (-acknowledged +stored):\n%s", diff)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TestReadOnlyDatabase turns writes off on the live pool (PRAGMA query_only,
// which fails writes with SQLITE_READONLY as a read-only file does): writes
// report storage_readonly, reads go on, and writes work again after.
func TestReadOnlyDatabase(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	ls, as := store.NewLearnerService(db), store.NewAttemptService(db)
	learner, _ := ls.CreateAnonymous(ctx)
	before := attemptFor(learner.ID, "before")
	if err := as.CreateAttempt(ctx, before); err != nil {
		t.Fatal(err)
	}
	if err := db.SetQueryOnly(ctx, true); err != nil {
		t.Fatal(err)
	}
	wantStorageError(t, as.CreateAttempt(ctx, attemptFor(learner.ID, "refused")), "error.storage_readonly")
	_, err := ls.CreateAnonymous(ctx)
	wantStorageError(t, err, "error.storage_readonly")
	if _, err := as.FindAttempt(ctx, before.ID); err != nil {
		t.Errorf("reading a read-only database: %v", err)
	}
	if err := db.SetQueryOnly(ctx, false); err != nil {
		t.Fatal(err)
	}
	after := attemptFor(learner.ID, "after")
	if err := as.CreateAttempt(ctx, after); err != nil {
		t.Fatalf("after writes were allowed again: %v", err)
	}
	list, _ := as.ListAttempts(ctx, learner.ID, 10)
	if len(list) != 2 {
		t.Errorf("%d attempts stored, want before and after", len(list))
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TestBackupWhileWriting backs a database up while another goroutine keeps
// writing to it, restores the backup as README says (copy it over a
// database path, no -wal or -shm beside it) and checks the restored copy: it
// opens, passes integrity_check, and holds exactly the first rows written,
// each as written, with no gap (one consistent snapshot).
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "live.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ls, as := store.NewLearnerService(db), store.NewAttemptService(db)
	learner, _ := ls.CreateAnonymous(ctx)

	var written atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := as.CreateAttempt(ctx, attemptFor(learner.ID, fmt.Sprintf("row %d", i))); err != nil {
				t.Error(err)
				return
			}
			written.Add(1)
		}
	}()
	for written.Load() < 200 {
		time.Sleep(time.Millisecond)
	}
	backup := filepath.Join(dir, "backup.db")
	atStart := written.Load()
	info, err := store.Backup(ctx, path, backup, false)
	atEnd := written.Load()
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if info.Pages == 0 || info.Bytes == 0 {
		t.Errorf("backup info = %+v", info)
	}
	t.Logf("rows written: %d when the backup began, %d when it ended", atStart, atEnd)
	if atEnd == atStart {
		t.Log("the writer made no progress during the backup; the snapshot is still checked")
	}

	// Restore: copy the backup over a database path and start on it.
	restored := filepath.Join(dir, "restored.db")
	copyFile(t, backup, restored)
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(backup + suffix); err == nil {
			t.Errorf("the backup left %s beside it; a backup must be one file", backup+suffix)
		}
	}
	rdb, err := store.Open(ctx, restored)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	if err := rdb.IntegrityCheck(ctx); err != nil {
		t.Errorf("the restored copy: %v", err)
	}
	var live, back []*examsim.Attempt
	as.EachAttempt(ctx, func(a *examsim.Attempt) error { live = append(live, a); return nil })
	store.NewAttemptService(rdb).EachAttempt(ctx, func(a *examsim.Attempt) error { back = append(back, a); return nil })
	if n := int64(len(back)); n < atStart || n > atEnd {
		t.Errorf("the backup holds %d attempts; %d were written when it began and %d when it ended", n, atStart, atEnd)
	}
	if len(back) > len(live) {
		t.Fatalf("the backup holds %d attempts, more than the %d written", len(back), len(live))
	}
	if diff := cmp.Diff(live[:len(back)], back, cmpopts.EquateApproxTime(0)); diff != "" {
		t.Errorf("the backup is not the first %d rows as written (-live +backup):\n%s", len(back), diff)
	}
	if _, err := store.NewLearnerService(rdb).FindLearner(ctx, learner.ID); err != nil {
		t.Errorf("the learner is missing from the backup: %v", err)
	}

	// An existing file is kept unless overwriting is asked for.
	if _, err := store.Backup(ctx, path, backup, false); !errors.Is(err, store.ErrBackupExists) {
		t.Errorf("backing up over an existing file: %v, want ErrBackupExists", err)
	}
	if _, err := store.Backup(ctx, path, backup, true); err != nil {
		t.Errorf("overwriting: %v", err)
	}
	if _, err := store.Backup(ctx, path, path, true); err == nil {
		t.Error("backing the database up onto itself succeeded")
	}
	missing := filepath.Join(dir, "missing.db")
	if _, err := store.Backup(ctx, missing, filepath.Join(dir, "b2.db"), false); err == nil {
		t.Error("backing up a missing database succeeded")
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("backing up a missing database created it")
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
