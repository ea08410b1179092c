package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
)

// hostedRoom makes an instructor with a live run in progress and n players.
func hostedRoom(t *testing.T, ls *store.LearnerService, cs *store.ClassroomService, name string, n int) (*examsim.Learner, *examsim.ClassRun, []*examsim.Player) {
	t.Helper()
	ctx := context.Background()
	host, err := ls.CreateAccount(ctx, name, "long enough pass", examsim.RoleInstructor)
	if err != nil {
		t.Fatal(err)
	}
	quiz := &examsim.Quiz{OwnerID: host.ID, Title: "q " + name, QuestionIDs: []string{"malformed-order-id"}, SecondsPerQuestion: 20,
		Scoring: examsim.ScoreCorrectness, Explanations: examsim.ExplainOptional}
	if err := cs.CreateQuiz(ctx, quiz); err != nil {
		t.Fatal(err)
	}
	run := &examsim.ClassRun{HostID: host.ID, Mode: examsim.ModeLive, Quiz: *quiz, Phase: examsim.PhaseQuestion}
	if err := cs.CreateRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	var players []*examsim.Player
	for i := range n {
		p := &examsim.Player{RunID: run.ID, Nickname: fmt.Sprintf("%s p%d", name, i), Lang: examsim.English, RejoinHash: []byte{byte(i)}}
		if err := cs.CreatePlayer(ctx, p); err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}
	return host, run, players
}

func classAnswer(run *examsim.ClassRun, p *examsim.Player) *examsim.ClassAnswer {
	return &examsim.ClassAnswer{RunID: run.ID, PlayerID: p.ID, Answer: examsim.Answer{QuestionID: "malformed-order-id", Lang: examsim.English, Choice: "A", Verdict: examsim.Verdict{Concepts: []examsim.ConceptHit{}, Misconceptions: []string{}}}}
}

// TestSaveAnswersIsolatesRefusedAnswer puts answers of two rooms in one
// group commit after one room's host was deleted: the gone room's answers
// are refused, each on its own, and the other room's are all stored.
func TestSaveAnswersIsolatesRefusedAnswer(t *testing.T) {
	eachDialect(t, testSaveAnswersIsolatesRefusedAnswer)
}

func testSaveAnswersIsolatesRefusedAnswer(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, cs := store.NewLearnerService(db), store.NewClassroomService(db)
	hostA, sessA, playersA := hostedRoom(t, ls, cs, "host_a", 2)
	_, sessB, playersB := hostedRoom(t, ls, cs, "host_b", 3)
	if err := ls.DeleteLearner(ctx, hostA.ID); err != nil {
		t.Fatal(err)
	}
	batch := []*examsim.ClassAnswer{classAnswer(sessB, playersB[0]), classAnswer(sessA, playersA[0]),
		classAnswer(sessB, playersB[1]), classAnswer(sessA, playersA[1]), classAnswer(sessB, playersB[2])}
	err := cs.SaveAnswers(ctx, batch)
	var refused examsim.BatchErrors
	if !errors.As(err, &refused) || len(refused) != len(batch) {
		t.Fatalf("SaveAnswers = %v; want BatchErrors for %d answers", err, len(batch))
	}
	for i, a := range batch {
		gone := a.RunID == sessA.ID
		var e *examsim.Error
		switch {
		case gone && (!errors.As(refused[i], &e) || e.Code != examsim.ECONFLICT || e.MessageID != "class.error_not_running"):
			t.Errorf("answer %d to the deleted room: %v; want ECONFLICT class.error_not_running", i, refused[i])
		case !gone && refused[i] != nil:
			t.Errorf("answer %d to the other room failed: %v", i, refused[i])
		case !gone && a.ID == 0:
			t.Errorf("answer %d to the other room has no id", i)
		}
	}
	got, err := cs.ListAnswers(ctx, sessB.ID)
	if err != nil || len(got) != len(playersB) {
		t.Fatalf("room B has %d stored answers (%v), want %d", len(got), err, len(playersB))
	}
	// A batch with nothing refused is plainly nil.
	if err := cs.SaveAnswers(ctx, []*examsim.ClassAnswer{classAnswer(sessB, playersB[0])}); err != nil {
		t.Errorf("a repeated answer: %v", err)
	}
}

// TestOtherConstraintFailuresAreNotNotRunning: only a foreign-key failure
// (the room is gone) tells a student the quiz is not running; another
// constraint failure from bad data is an internal error of that answer
// alone, and the rest of the batch is stored.
func TestOtherConstraintFailuresAreNotNotRunning(t *testing.T) {
	eachDialect(t, testOtherConstraintFailuresAreNotNotRunning)
}

func testOtherConstraintFailuresAreNotNotRunning(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, cs := store.NewLearnerService(db), store.NewClassroomService(db)
	_, run, players := hostedRoom(t, ls, cs, "host_c", 2)
	if db.Dialect() == "postgres" {
		db.ExecSQL(t, `ALTER TABLE class_answers ADD CONSTRAINT refuse_bad CHECK (question_id <> 'bad')`)
	} else {
		db.ExecSQL(t, `CREATE TRIGGER refuse_bad BEFORE INSERT ON class_answers WHEN NEW.question_id = 'bad'
		BEGIN SELECT RAISE(ABORT, 'bad data'); END`)
	}
	bad := classAnswer(run, players[0])
	bad.QuestionID = "bad"
	batch := []*examsim.ClassAnswer{bad, classAnswer(run, players[1])}
	err := cs.SaveAnswers(ctx, batch)
	var refused examsim.BatchErrors
	if !errors.As(err, &refused) || len(refused) != len(batch) {
		t.Fatalf("SaveAnswers = %v; want BatchErrors for %d answers", err, len(batch))
	}
	var e *examsim.Error
	if !errors.As(refused[0], &e) || e.Code != examsim.EINTERNAL || e.MessageID == "class.error_not_running" {
		t.Errorf("the answer with bad data: %v; want EINTERNAL, not class.error_not_running", refused[0])
	}
	if refused[1] != nil || batch[1].ID == 0 {
		t.Errorf("the good answer: %v (id %d); want it stored", refused[1], batch[1].ID)
	}
}

// TestSaveQuizValidates: the store refuses a quiz that breaks its invariants,
// whoever calls it, and saves nothing.
func TestSaveQuizValidates(t *testing.T) { eachDialect(t, testSaveQuizValidates) }

func testSaveQuizValidates(t *testing.T, open opener) {
	ctx := context.Background()
	db := open(t)
	ls, cs := store.NewLearnerService(db), store.NewClassroomService(db)
	host, err := ls.CreateAccount(ctx, "quiz_host", "long enough pass", examsim.RoleInstructor)
	if err != nil {
		t.Fatal(err)
	}
	quiz := &examsim.Quiz{OwnerID: host.ID, Title: "q", SecondsPerQuestion: 20,
		Scoring: examsim.ScoreCorrectness, Explanations: examsim.ExplainOptional}
	if err := cs.CreateQuiz(ctx, quiz); examsim.ErrorCode(err) != examsim.EINVALID {
		t.Fatalf("CreateQuiz without questions = %v, want %s", err, examsim.EINVALID)
	}
	if got, err := cs.ListQuizzes(ctx, host.ID); err != nil || len(got) != 0 {
		t.Fatalf("ListQuizzes = %d quizzes, %v; want none", len(got), err)
	}
	quiz.QuestionIDs = []string{"malformed-order-id"}
	if err := cs.CreateQuiz(ctx, quiz); err != nil {
		t.Fatal(err)
	}
	quiz.SecondsPerQuestion = 7
	if err := cs.UpdateQuiz(ctx, quiz); examsim.ErrorCode(err) != examsim.EINVALID {
		t.Fatalf("UpdateQuiz with 7 s = %v, want %s", err, examsim.EINVALID)
	}
}

// doneCounter is a context that counts how often a driver asks for its
// Done channel: a driver that never asks treats it as uncancellable.
type doneCounter struct {
	context.Context
	mu    sync.Mutex
	calls int
}

func (c *doneCounter) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	return c.Context.Done()
}

func (c *doneCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// The group commits hand SQLite no context it could cancel: given one,
// mattn's driver runs each statement on a goroutine of its own and waits
// for it, two trips through the scheduler per statement, which under a
// classroom's load added tens of milliseconds to a batch. PostgreSQL's
// driver has no such cost, and keeps the caller's cancellation.
func TestGroupCommitsRunOnTheCallersGoroutine(t *testing.T) {
	eachDialect(t, func(t *testing.T, open opener) {
		db := open(t)
		ls, cs := store.NewLearnerService(db), store.NewClassroomService(db)
		_, run, players := hostedRoom(t, ls, cs, "hops_host", 2)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		watched := &doneCounter{Context: ctx}
		if err := cs.SaveAnswers(watched, []*examsim.ClassAnswer{classAnswer(run, players[0]), classAnswer(run, players[1])}); err != nil {
			t.Fatal(err)
		}
		next := *run
		next.QuestionIndex = 1
		if err := cs.UpdateRunStates(watched, []*examsim.ClassRun{&next}); err != nil {
			t.Fatal(err)
		}
		asked := watched.count()
		if sqlite := db.Dialect() == "sqlite"; sqlite && asked != 0 {
			t.Errorf("SQLite's driver asked for the context's Done %d times; want 0 (an uncancellable context)", asked)
		} else if !sqlite && asked == 0 {
			t.Error("PostgreSQL's driver never saw the caller's context; want its cancellation kept")
		}
	})
}
