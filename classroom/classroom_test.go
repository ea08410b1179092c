package classroom_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/internal/pgtest"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
	"github.com/examsim/examsim/store"
)

type fixture struct {
	db       *store.DB
	classes  *store.ClassroomService
	attempts *store.AttemptService
	bank     *questions.Bank
	hub      *classroom.Hub
	host     *examsim.Learner
	clock    *clock
}

// clock is a settable clock, so time limits are tested without sleeping.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

var bankOnce = sync.OnceValues(func() (*questions.Bank, questions.Problems) {
	fsys, name := questions.Embedded()
	return questions.Load(fsys, name)
})

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, pgtest.ForSuite(t, filepath.Join(t.TempDir(), "class.db")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	bank, problems := bankOnce()
	if bank == nil || len(bank.Questions) < 2 {
		t.Fatalf("bank: %v", problems)
	}
	f := &fixture{db: db, classes: store.NewClassroomService(db), attempts: store.NewAttemptService(db), bank: bank,
		clock: &clock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}}
	f.hub = classroom.NewHub(classroom.Config{Store: f.classes, Bank: bank, Now: f.clock.Now,
		Grace: time.Second})
	t.Cleanup(f.hub.Close)
	f.host, err = store.NewLearnerService(db).CreateAccount(ctx, "teacher", "correct-horse", examsim.RoleInstructor)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// quizIDs are two questions every language has.
var quizIDs = []string{"empty-result-retry-loop", "malformed-order-id"}

func (f *fixture) quiz(t *testing.T, scoring examsim.ScoringMode, expl examsim.ExplanationMode) *examsim.Quiz {
	t.Helper()
	q := &examsim.Quiz{OwnerID: f.host.ID, Title: "Errors", QuestionIDs: quizIDs, SecondsPerQuestion: 20,
		Scoring: scoring, Leaderboard: true, Explanations: expl}
	if err := f.classes.CreateQuiz(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	return q
}

func (f *fixture) live(t *testing.T, scoring examsim.ScoringMode) *classroom.Room {
	t.Helper()
	room, err := f.hub.Create(context.Background(), f.quiz(t, scoring, examsim.ExplainOptional), f.host.ID, examsim.ModeLive, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	return room
}

func (f *fixture) answerOf(index int) string {
	q, _ := f.bank.Question(quizIDs[index])
	return q.Answer
}

func (f *fixture) wrongOf(index int) string {
	q, _ := f.bank.Question(quizIDs[index])
	for _, o := range q.Text(examsim.English).Options {
		if o.Letter != q.Answer {
			return o.Letter
		}
	}
	return ""
}

func TestPoints(t *testing.T) {
	limit := 20 * time.Second
	tests := []struct {
		name    string
		correct bool
		scoring examsim.ScoringMode
		elapsed time.Duration
		expl    examsim.ExplanationMode
		score   int
		want    int
	}{
		{"wrong earns nothing", false, examsim.ScoreSpeed, 0, examsim.ExplainOptional, 100, 0},
		{"correctness ignores time", true, examsim.ScoreCorrectness, 19 * time.Second, examsim.ExplainOff, 0, 1000},
		{"speed: instant", true, examsim.ScoreSpeed, 0, examsim.ExplainOff, 0, 1000},
		{"speed: half the time", true, examsim.ScoreSpeed, 10 * time.Second, examsim.ExplainOff, 0, 750},
		{"speed: at the limit", true, examsim.ScoreSpeed, limit, examsim.ExplainOff, 0, 500},
		{"speed: late taps count as the limit", true, examsim.ScoreSpeed, limit + time.Second, examsim.ExplainOff, 0, 500},
		{"explanation adds its share", true, examsim.ScoreCorrectness, 0, examsim.ExplainOptional, 60, 1300},
		{"explanations off add nothing", true, examsim.ScoreCorrectness, 0, examsim.ExplainOff, 100, 1000},
	}
	for _, tt := range tests {
		if got := classroom.Points(tt.correct, tt.scoring, tt.elapsed, limit, tt.expl, tt.score); got != tt.want {
			t.Errorf("%s: Points = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestScoringModes plays one question in each mode: correctness gives every
// right answer the same; the speed bonus rewards the faster of two.
func TestScoringModes(t *testing.T) {
	for _, mode := range []examsim.ScoringMode{examsim.ScoreCorrectness, examsim.ScoreSpeed} {
		t.Run(string(mode), func(t *testing.T) {
			f := newFixture(t)
			ctx := context.Background()
			room := f.live(t, mode)
			fast, _, err := room.Join(ctx, "Fast", examsim.Thai, 0)
			if err != nil {
				t.Fatal(err)
			}
			slow, _, _ := room.Join(ctx, "Slow", examsim.Polish, 0)
			wrong, _, _ := room.Join(ctx, "Wrong", examsim.Vietnamese, 0)
			if err := room.Next(ctx, -1); err != nil {
				t.Fatal(err)
			}
			f.clock.Advance(2 * time.Second)
			a1, err := room.Answer(ctx, fast.ID, 0, f.answerOf(0), "")
			if err != nil {
				t.Fatal(err)
			}
			f.clock.Advance(10 * time.Second)
			a2, _ := room.Answer(ctx, slow.ID, 0, f.answerOf(0), "")
			a3, _ := room.Answer(ctx, wrong.ID, 0, f.wrongOf(0), "")
			got := []int{a1.Points, a2.Points, a3.Points}
			want := []int{1000, 1000, 0}
			if mode == examsim.ScoreSpeed {
				want = []int{950, 700, 0}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("points (-want +got):\n%s", diff)
			}
			// Points stay hidden until the reveal: they would give the answer away.
			if p, _ := room.Player(fast.ID); p.Points != 0 {
				t.Errorf("before the reveal the student sees %d points", p.Points)
			}
			if err := room.Reveal(ctx, 0); err != nil {
				t.Fatal(err)
			}
			if p, _ := room.Player(fast.ID); p.Points != want[0] {
				t.Errorf("after the reveal: %d points, want %d", p.Points, want[0])
			}
			snap := room.Snapshot()
			if snap.Ranking[0].Nickname != "Fast" || snap.Ranking[2].Nickname != "Wrong" {
				t.Errorf("ranking = %+v", snap.Ranking)
			}
		})
	}
}

// TestAnswerRules covers what a room refuses: a second answer, a closed
// question, a choice that does not exist, a missing required explanation.
func TestAnswerRules(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	room, err := f.hub.Create(ctx, f.quiz(t, examsim.ScoreCorrectness, examsim.ExplainRequired), f.host.ID, examsim.ModeLive, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	p, _, _ := room.Join(ctx, "Lan", examsim.Vietnamese, 0)
	if _, err := room.Answer(ctx, p.ID, 0, "A", "because"); examsim.ErrorCode(err) != examsim.ECONFLICT {
		t.Errorf("answer in the lobby: %v", err)
	}
	room.Next(ctx, -1)
	if _, err := room.Answer(ctx, p.ID, 0, f.answerOf(0), ""); examsim.ErrorCode(err) != examsim.EINVALID {
		t.Errorf("no explanation where required: %v", err)
	}
	if _, err := room.Answer(ctx, p.ID, 0, "Z", "because"); examsim.ErrorCode(err) != examsim.EINVALID {
		t.Errorf("choice Z: %v", err)
	}
	if _, err := room.Answer(ctx, p.ID, 0, f.answerOf(0), "because it is empty, not failed"); err != nil {
		t.Fatal(err)
	}
	if _, err := room.Answer(ctx, p.ID, 0, f.wrongOf(0), "changed my mind"); examsim.ErrorCode(err) != examsim.ECONFLICT {
		t.Errorf("second answer: %v", err)
	}
	// The same answer sent again (a resend after a server error or a lost
	// reply) gets the stored result, never "already answered".
	if a, err := room.Answer(ctx, p.ID, 0, f.answerOf(0), " because it is empty, not failed "); err != nil || a.Explanation != "because it is empty, not failed" {
		t.Errorf("a resend of the stored answer: %+v %v, want the stored answer", a, err)
	}
	// Past the limit and the grace, the question is closed.
	room.Reveal(ctx, 0)
	room.Next(ctx, 0)
	f.clock.Advance(22 * time.Second)
	if _, err := room.Answer(ctx, p.ID, 1, f.answerOf(1), "late"); examsim.ErrorCode(err) != examsim.ECONFLICT {
		t.Errorf("late answer: %v", err)
	}
	// A double click on next acts once.
	if err := room.Reveal(ctx, 1); err != nil {
		t.Fatal(err)
	}
	room.Next(ctx, 1)
	room.Next(ctx, 1)
	if s := room.Run(); s.Phase != examsim.PhaseEnded {
		t.Errorf("after the last question: %s", s.Phase)
	}
}

// TestHubConcurrency joins, watches and answers from many goroutines at
// once; run with -race it checks the room is safe for concurrent use, and
// every acknowledged answer is in the store.
func TestHubConcurrency(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	room := f.live(t, examsim.ScoreSpeed)
	const n = 60
	players := make([]*examsim.Player, n)
	errs := make([]error, n) // collected, and checked once every goroutine is done
	var wg sync.WaitGroup
	for i := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			players[i], _, errs[i] = room.Join(ctx, fmt.Sprintf("student %d", i), examsim.Langs[i%4], 0)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("joining: %v", err)
	}
	if err := room.Next(ctx, -1); err != nil {
		t.Fatal(err)
	}
	host := room.Watch(0)
	for i, p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := room.Watch(p.ID)
			defer s.Close()
			<-s.C()
			room.Snapshot()
			room.StageSnapshot()
			choice := f.answerOf(0)
			if i%3 == 0 {
				choice = f.wrongOf(0)
			}
			_, errs[i] = room.Answer(ctx, p.ID, 0, choice, "empty result, not a failure")
			room.Player(p.ID)
		}()
	}
	wg.Add(1)
	go func() { // the host's screen reads while the answers arrive
		defer wg.Done()
		for range 50 {
			room.Snapshot()
			f.hub.Stats()
		}
	}()
	wg.Wait()
	host.Close()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("answering: %v", err)
	}
	snap := room.Snapshot()
	if snap.Answered != n || len(snap.Players) != n {
		t.Fatalf("answered %d of %d players %d", snap.Answered, n, len(snap.Players))
	}
	stored, err := f.classes.ListAnswers(ctx, room.ID)
	if err != nil || len(stored) != n {
		t.Fatalf("stored %d answers, %v", len(stored), err)
	}
	if st := f.hub.Stats(); st.Committed != n || st.Streams != 0 {
		t.Errorf("stats = %+v", st)
	}
}

// TestHubConcurrentLifecycle drives the host's controls, kicks, joins and
// streams of two rooms at once; under -race it checks the lifecycle and
// the hub's room table share nothing unguarded.
func TestHubConcurrentLifecycle(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rooms := []*classroom.Room{f.live(t, examsim.ScoreSpeed), f.live(t, examsim.ScoreCorrectness)}
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for ri, room := range rooms {
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p, _, err := room.Join(ctx, fmt.Sprintf("r%d p%d", ri, i), examsim.English, 0)
				if err != nil {
					// The host may have locked or ended the room first.
					if e := (*examsim.Error)(nil); !errors.As(err, &e) || e.Code != examsim.ECONFLICT {
						errs <- err
					}
					return
				}
				s := room.Watch(p.ID)
				<-s.C()
				if i%4 == 0 {
					if err := room.Kick(ctx, p.ID); err != nil {
						errs <- err
					}
				}
				s.Close()
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, step := range []func() error{
				func() error { return room.SetLocked(ctx, true) },
				func() error { return room.SetLocked(ctx, false) },
				func() error { return room.Next(ctx, -1) },
				func() error { return room.Reveal(ctx, 0) },
				func() error { return room.ShowLeaderboard(ctx, 0) },
				func() error { return room.Next(ctx, 0) },
				func() error { return room.End(ctx) },
			} {
				if err := step(); err != nil {
					errs <- err
				}
				if _, err := f.hub.Room(ctx, room.ID); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 20 {
			f.hub.Stats()
			f.hub.Evict(time.Time{})
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, room := range rooms {
		if s := room.Run(); s.Phase != examsim.PhaseEnded {
			t.Errorf("room %d ended in phase %s", room.ID, s.Phase)
		}
	}
}

// TestStreamCaps opens more streams than one player, and one room's host,
// may hold: each new one past the cap ends the owner's oldest as replaced,
// and other owners' streams are untouched.
func TestStreamCaps(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	room := f.live(t, examsim.ScoreCorrectness)
	p, _, err := room.Join(ctx, "many tabs", examsim.English, 0)
	if err != nil {
		t.Fatal(err)
	}
	q, _, err := room.Join(ctx, "one tab", examsim.English, 0)
	if err != nil {
		t.Fatal(err)
	}
	other := room.Watch(q.ID)
	defer other.Close()
	for _, c := range []struct {
		owner int64
		limit int
	}{{p.ID, classroom.MaxPlayerStreams}, {0, classroom.MaxHostStreams}} {
		var opened []*classroom.Stream
		for range c.limit + 5 {
			opened = append(opened, room.Watch(c.owner))
		}
		for i, s := range opened {
			select {
			case <-s.Ended():
				if i >= 5 {
					t.Errorf("owner %d: stream %d of %d ended, but it is among the newest %d", c.owner, i, len(opened), c.limit)
				} else if s.Reason() != classroom.Replaced {
					t.Errorf("owner %d: stream %d ended for reason %d, want Replaced", c.owner, i, s.Reason())
				}
			default:
				if i < 5 {
					t.Errorf("owner %d: stream %d of %d still open past the cap of %d", c.owner, i, len(opened), c.limit)
				}
			}
		}
		for _, s := range opened {
			s.Close()
		}
	}
	select {
	case <-other.Ended():
		t.Error("another player's stream was ended")
	default:
	}
	if st := f.hub.Stats(); st.Streams != 1 {
		t.Errorf("%d streams open after closing, want 1", st.Streams)
	}
}

// TestTiesShareARank gives two players the same points: they share first
// place and the next player is third.
func TestTiesShareARank(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	room := f.live(t, examsim.ScoreCorrectness)
	var ps []*examsim.Player
	for _, name := range []string{"Ada", "Bea", "Cy"} {
		p, _, err := room.Join(ctx, name, examsim.English, 0)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	if err := room.Next(ctx, -1); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		choice := f.answerOf(0)
		if i == 2 {
			choice = f.wrongOf(0)
		}
		if _, err := room.Answer(ctx, p.ID, 0, choice, ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := room.Reveal(ctx, 0); err != nil {
		t.Fatal(err)
	}
	snap := room.Snapshot()
	got := []int{snap.Rank(ps[0].ID), snap.Rank(ps[1].ID), snap.Rank(ps[2].ID)}
	if !slices.Equal(got, []int{1, 1, 3}) {
		t.Errorf("ranks = %v, want [1 1 3]", got)
	}
}

// slowStore holds the first group commit until the test has queued a burst
// behind it, then counts the transactions the burst took.
type slowStore struct {
	examsim.ClassroomService
	mu      sync.Mutex
	calls   []int
	release chan struct{}
	once    sync.Once
	held    int // the size of the batch being held
}

func (s *slowStore) heldSize() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held
}

func (s *slowStore) SaveAnswers(ctx context.Context, as []*examsim.ClassAnswer) error {
	s.once.Do(func() {
		s.mu.Lock()
		s.held = len(as)
		s.mu.Unlock()
		<-s.release
	})
	s.mu.Lock()
	s.calls = append(s.calls, len(as))
	s.mu.Unlock()
	return s.ClassroomService.SaveAnswers(ctx, as)
}

// TestGroupCommit sends a burst of 1,000 answers: each is acknowledged only
// after its transaction commits, and they take a handful of transactions,
// not a thousand.
func TestGroupCommit(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	slow := &slowStore{ClassroomService: f.classes, release: make(chan struct{})}
	hub := classroom.NewHub(classroom.Config{Store: slow, Bank: f.bank, Now: f.clock.Now, MaxBatch: 256})
	defer hub.Close()
	room, err := hub.Create(ctx, f.quiz(t, examsim.ScoreCorrectness, examsim.ExplainOff), f.host.ID, examsim.ModeLive, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 1000
	ids := make([]int64, n)
	for i := range ids {
		p, _, err := room.Join(ctx, fmt.Sprintf("p%d", i), examsim.English, 0)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = p.ID
	}
	room.Next(ctx, -1)
	acked := make(chan int64, n)
	for _, id := range ids {
		go func() {
			if _, err := room.Answer(ctx, id, 0, f.answerOf(0), ""); err != nil {
				t.Error(err)
			}
			acked <- id
		}()
	}
	// Nothing is acknowledged while the first transaction is held.
	for held := 0; held == 0 || held+hub.Stats().Queued < n; held = slow.heldSize() {
		select {
		case <-acked:
			t.Fatal("an answer was acknowledged before any commit")
		default:
			time.Sleep(time.Millisecond)
		}
	}
	close(slow.release)
	for range n {
		<-acked
	}
	slow.mu.Lock()
	calls := slow.calls
	slow.mu.Unlock()
	total := 0
	for _, c := range calls {
		total += c
	}
	if total != n || len(calls) > 1+(n-1+255)/256 {
		t.Errorf("%d answers in %d transactions %v; want %d in at most %d", total, len(calls), calls, n, 1+(n-1+255)/256)
	}
	stored, _ := f.classes.ListAnswers(ctx, room.ID)
	if len(stored) != n {
		t.Errorf("stored %d", len(stored))
	}
}

// TestRejoin brings a student back from their token alone, with their
// points, after the room is reloaded from the store (a server restart).
func TestRejoin(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	room := f.live(t, examsim.ScoreCorrectness)
	p, token, err := room.Join(ctx, "Ngọc Anh", examsim.Vietnamese, 0)
	if err != nil {
		t.Fatal(err)
	}
	room.Next(ctx, -1)
	room.Answer(ctx, p.ID, 0, f.answerOf(0), "")
	room.Reveal(ctx, 0)

	s := room.Watch(p.ID)
	s.Close()
	s = room.Watch(p.ID) // the reload
	defer s.Close()
	snap := room.Snapshot()
	if snap.Players[0].Reconnects != 1 || snap.Log[len(snap.Log)-1].Event != "reconnected" {
		t.Errorf("the host does not see the reconnect: %+v %+v", snap.Players, snap.Log)
	}

	// A new hub reads the room back from the store.
	hub2 := classroom.NewHub(classroom.Config{Store: f.classes, Bank: f.bank, Now: f.clock.Now})
	defer hub2.Close()
	again, err := hub2.Room(ctx, room.ID)
	if err != nil {
		t.Fatal(err)
	}
	back, ok := again.Rejoin(token)
	if !ok || back.ID != p.ID || back.Nickname != "Ngọc Anh" {
		t.Fatalf("rejoin = %+v %v", back, ok)
	}
	if v, _ := again.Player(back.ID); v.Points != 1000 {
		t.Errorf("points after rejoin = %d", v.Points)
	}
	if _, ok := again.Rejoin("not-a-token"); ok {
		t.Error("a made-up token rejoined")
	}
	// A kicked student's token stops working and their stream is told.
	w := room.Watch(p.ID)
	if err := room.Kick(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.Ended():
		if w.Reason() != classroom.Kicked {
			t.Errorf("the kicked student's stream ended for reason %d", w.Reason())
		}
	default:
		t.Error("the stream of a kicked student was not told")
	}
	w.Close()
	if _, ok := room.Rejoin(token); ok {
		t.Error("a kicked student rejoined")
	}
}

func TestJoinRules(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	room := f.live(t, examsim.ScoreCorrectness)
	if _, _, err := room.Join(ctx, "Kasia", examsim.Polish, 0); err != nil {
		t.Fatal(err)
	}
	for nick, code := range map[string]examsim.Code{
		"kasia":                 examsim.ECONFLICT, // unique ignoring case
		"K":                     examsim.EINVALID,
		strings.Repeat("x", 21): examsim.EINVALID,
		"a\u202eb":              examsim.EINVALID, // an invisible direction override
		"fuck_off":              examsim.EINVALID,
		"k u r w a":             examsim.EINVALID,
		"đéo":                   examsim.EINVALID,
		"ควยมาก":                examsim.EINVALID,
	} {
		if _, _, err := room.Join(ctx, nick, examsim.Polish, 0); examsim.ErrorCode(err) != code {
			t.Errorf("Join(%q) = %v, want %s", nick, err, code)
		}
	}
	for _, ok := range []string{"Hancock", "Đĩa Nhạc", "Lồng Đèn", "สมชาย", "Zażółć"} {
		if _, _, err := room.Join(ctx, ok, examsim.Thai, 0); err != nil {
			t.Errorf("Join(%q) = %v", ok, err)
		}
	}
	room.SetLocked(ctx, true)
	if _, _, err := room.Join(ctx, "Late", examsim.English, 0); examsim.ErrorCode(err) != examsim.ECONFLICT {
		t.Errorf("join a locked room: %v", err)
	}
}

func TestCSV(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	room := f.live(t, examsim.ScoreCorrectness)
	type who struct {
		nick, expl string
		lang       examsim.Lang
	}
	people := []who{
		{"Nguyễn Thị Hoà", "Kết quả rỗng hợp lệ, không phải lỗi truy cập; thử lại không giúp gì.", examsim.Vietnamese},
		{"สมหญิง", "ผลลัพธ์ว่างที่ถูกต้อง ไม่ใช่ access failure การ retry ไม่ช่วย", examsim.Thai},
		{"=cmd|' /C calc'!A0", "+1 line\nsecond line, with \"quotes\"", examsim.English},
		{"@SUM(A1)", "-2+3", examsim.Polish},
	}
	for _, p := range people {
		if _, _, err := room.Join(ctx, p.nick, p.lang, 0); err != nil {
			t.Fatalf("join %q: %v", p.nick, err)
		}
	}
	room.Next(ctx, -1)
	snap := room.Snapshot()
	for i, p := range snap.Players {
		if _, err := room.Answer(ctx, p.ID, 0, f.answerOf(0), people[i].expl); err != nil {
			t.Fatal(err)
		}
	}
	// Question 2: the Thai student answers with no explanation, the
	// Vietnamese with one that scores 0, the others not at all.
	room.Reveal(ctx, 0)
	room.Next(ctx, 0)
	if _, err := room.Answer(ctx, snap.Players[1].ID, 1, f.wrongOf(1), ""); err != nil {
		t.Fatal(err)
	}
	zero, err := room.Answer(ctx, snap.Players[0].ID, 1, f.wrongOf(1), "không biết")
	if err != nil || zero.Score() != 0 {
		t.Fatalf("an explanation scoring 0: %+v %v", zero, err)
	}
	res, err := classroom.LoadResults(ctx, f.classes, f.bank, room.ID)
	if err != nil {
		t.Fatal(err)
	}
	bangkok, err := time.LoadLocation("Asia/Bangkok")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := classroom.WriteCSV(&buf, res, bangkok); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte{0xEF, 0xBB, 0xBF}) {
		t.Fatal("no UTF-8 byte-order mark")
	}
	rows, err := csv.NewReader(bytes.NewReader(buf.Bytes()[3:])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(classroom.CSVHeader, rows[0]); diff != "" {
		t.Errorf("header (-want +got):\n%s", diff)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	if len(rows) != 1+len(people)*len(quizIDs) {
		t.Fatalf("%d rows, want a header and one per student and question (%d)", len(rows), len(people)*len(quizIDs))
	}
	var got, want [][2]string
	for _, r := range rows[1:] {
		if r[col["question_number"]] == "1" {
			got = append(got, [2]string{r[col["nickname"]], r[col["explanation"]]})
		}
	}
	for _, p := range people {
		want = append(want, [2]string{classroom.EscapeCell(p.nick), classroom.EscapeCell(p.expl)})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	// Question 2's rows: no explanation, a score of 0, and no answer, each
	// told apart; titles in the student's own language; times with +07:00.
	q2, _ := f.bank.Question(quizIDs[1])
	type cells struct{ Status, Explained, Score, Band, Title string }
	var got2 []cells
	for _, r := range rows[1:] {
		if r[col["question_number"]] == "2" {
			got2 = append(got2, cells{r[col["status"]], r[col["explained"]], r[col["explanation_score"]], r[col["explanation_band"]], r[col["question_title"]]})
			if r[col["status"]] == "answered" && !strings.HasSuffix(r[col["answered_at"]], "+07:00") {
				t.Errorf("answered_at %q is not in the viewer's zone with its offset", r[col["answered_at"]])
			}
		}
	}
	want2 := []cells{
		{"answered", "true", "0", "0", q2.Text(examsim.Vietnamese).Title},
		{"answered", "false", "", "", q2.Text(examsim.Thai).Title},
		{"no_answer", "false", "", "", q2.Text(examsim.English).Title},
		{"no_answer", "false", "", "", q2.Text(examsim.Polish).Title},
	}
	if diff := cmp.Diff(want2, got2); diff != "" {
		t.Errorf("question 2 rows (-want +got):\n%s", diff)
	}
	for _, r := range rows[1:] {
		for _, cell := range r {
			if cell != "" && strings.ContainsRune("=+-@", rune(cell[0])) {
				t.Errorf("cell %q would run as a formula", cell)
			}
		}
	}
	if got[0][0] != "Nguyễn Thị Hoà" || got[1][1] != people[1].expl {
		t.Errorf("Vietnamese or Thai changed on the way: %q", got)
	}
}

func TestEscapeCell(t *testing.T) {
	for in, want := range map[string]string{
		"=1+1": "'=1+1", "+1": "'+1", "-1": "'-1", "@x": "'@x", "\tx": "'\tx", "plain": "plain", "": "", "ไทย": "ไทย",
	} {
		if got := classroom.EscapeCell(in); got != want {
			t.Errorf("EscapeCell(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAssignment lets students go at their own pace until the deadline,
// and adds signed-in students' answers to their history.
func TestAssignment(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	learner, err := store.NewLearnerService(f.db).CreateAccount(ctx, "student1", "student-pass", examsim.RoleLearner)
	if err != nil {
		t.Fatal(err)
	}
	room, err := f.hub.Create(ctx, f.quiz(t, examsim.ScoreCorrectness, examsim.ExplainOptional), f.host.ID,
		examsim.ModeAssignment, f.clock.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := room.Join(ctx, "Tomek", examsim.Polish, learner.ID)
	if err != nil {
		t.Fatal(err)
	}
	if next := room.Open(p.ID); next != 0 {
		t.Fatalf("first question = %d", next)
	}
	if _, err := room.Answer(ctx, p.ID, 1, f.answerOf(1), ""); examsim.ErrorCode(err) != examsim.ECONFLICT {
		t.Errorf("skipping ahead: %v", err)
	}
	if _, err := room.Answer(ctx, p.ID, 0, f.answerOf(0), "Pusty wynik to nie błąd; ponawianie nic nie da."); err != nil {
		t.Fatal(err)
	}
	if next := room.Open(p.ID); next != 1 {
		t.Fatalf("next question = %d", next)
	}
	f.clock.Advance(2 * time.Hour)
	if _, err := room.Answer(ctx, p.ID, 1, f.answerOf(1), ""); examsim.ErrorCode(err) != examsim.ECONFLICT {
		t.Errorf("after the deadline: %v", err)
	}
	hist, err := f.attempts.ListAttempts(ctx, learner.ID, 10)
	if err != nil || len(hist) != 1 || hist[0].QuestionID != quizIDs[0] || hist[0].Lang != examsim.Polish {
		t.Errorf("history = %+v, %v", hist, err)
	}
}

// TestEvict drops ended rooms from memory and reads them back when asked.
func TestEvict(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	room := f.live(t, examsim.ScoreCorrectness)
	p, token, _ := room.Join(ctx, "Anna", examsim.Polish, 0)
	if n := f.hub.Evict(f.clock.Now()); n != 0 {
		t.Fatalf("evicted %d running rooms", n)
	}
	room.End(ctx)
	if n := f.hub.Evict(f.clock.Now()); n != 1 || f.hub.Stats().Rooms != 0 {
		t.Fatalf("evicted %d, %d rooms left", n, f.hub.Stats().Rooms)
	}
	again, err := f.hub.Room(ctx, room.ID)
	if err != nil {
		t.Fatal(err)
	}
	if back, ok := again.Rejoin(token); !ok || back.ID != p.ID {
		t.Error("the room read back does not know its player")
	}
}

// TestAssignmentHasNoSpeedPoints answers a self-paced assignment of a
// speed-scored quiz slowly and quickly: both earn the full right-answer points.
func TestAssignmentHasNoSpeedPoints(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	room, err := f.hub.Create(ctx, f.quiz(t, examsim.ScoreSpeed, examsim.ExplainOff), f.host.ID,
		examsim.ModeAssignment, f.clock.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := room.Join(ctx, "Slow", examsim.English, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, wait := range []time.Duration{15 * time.Second, time.Second} {
		room.Open(p.ID)
		f.clock.Advance(wait)
		a, err := room.Answer(ctx, p.ID, i, f.answerOf(i), "")
		if err != nil {
			t.Fatal(err)
		}
		if a.Points != classroom.CorrectPoints {
			t.Errorf("question %d answered after %v: %d points, want %d", i, wait, a.Points, classroom.CorrectPoints)
		}
	}
}

// TestAutoReveal reveals a question by itself once every connected student
// has answered, and not while one of them has not.
func TestAutoReveal(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	room := f.live(t, examsim.ScoreCorrectness)
	var ps []*examsim.Player
	for _, name := range []string{"Ann", "Ben", "Offline"} {
		p, _, err := room.Join(ctx, name, examsim.English, 0)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	a, b := room.Watch(ps[0].ID), room.Watch(ps[1].ID) // "Offline" never connects
	defer a.Close()
	defer b.Close()
	room.SetAutoReveal(true)
	if err := room.Next(ctx, -1); err != nil {
		t.Fatal(err)
	}
	if _, err := room.Answer(ctx, ps[0].ID, 0, f.answerOf(0), ""); err != nil {
		t.Fatal(err)
	}
	if ph := room.Run().Phase; ph != examsim.PhaseQuestion {
		t.Fatalf("revealed with one connected student still to answer: %s", ph)
	}
	host := room.Watch(0)
	defer host.Close()
	if _, err := room.Answer(ctx, ps[1].ID, 0, f.answerOf(0), ""); err != nil {
		t.Fatal(err)
	}
	for room.Run().Phase == examsim.PhaseQuestion { // the reveal wakes the host's stream
		select {
		case <-host.C():
		case <-time.After(30 * time.Second): // a hang guard, not a timing check
			t.Fatal("no auto-reveal after every connected student answered")
		}
	}
	if ph := room.Run().Phase; ph != examsim.PhaseReveal {
		t.Errorf("phase %s, want reveal", ph)
	}
}

// TestAnswerKeptWhenScoringFails: a scorer failure never costs a student
// their answer. It is stored and counted with its score pending (no
// explanation points until rescored), and a resend gets it back.
func TestAnswerKeptWhenScoringFails(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	fsys, name := questions.Embedded()
	broken, problems := questions.Load(fsys, name)
	if len(problems) > 0 {
		t.Fatal(problems.Error())
	}
	for _, id := range quizIDs {
		q, _ := broken.Question(id)
		for _, l := range examsim.Langs {
			r := q.Text(l).Rubric()
			r.Concepts[0].Patterns = append([]*scoring.Pattern{nil}, r.Concepts[0].Patterns...) // a nil pattern panics the scorer
		}
	}
	hub := classroom.NewHub(classroom.Config{Store: f.classes, Bank: broken, Now: f.clock.Now, Grace: time.Second})
	t.Cleanup(hub.Close)
	room, err := hub.Create(ctx, f.quiz(t, examsim.ScoreCorrectness, examsim.ExplainOptional), f.host.ID, examsim.ModeLive, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	p, _, _ := room.Join(ctx, "Lan", examsim.Vietnamese, 0)
	room.Next(ctx, -1)
	a, err := room.Answer(ctx, p.ID, 0, f.answerOf(0), "C là đúng nhất vì nó đúng hơn.")
	if err != nil || !a.Pending || a.Points != classroom.CorrectPoints {
		t.Fatalf("answer with a failing scorer: %+v %v, want it kept, pending, with the right answer's points", a, err)
	}
	if again, err := room.Answer(ctx, p.ID, 0, f.answerOf(0), "C là đúng nhất vì nó đúng hơn."); err != nil || again != a {
		t.Errorf("the resend: %+v %v, want the stored answer", again, err)
	}
	stored, err := f.classes.ListAnswers(ctx, room.ID)
	if err != nil || len(stored) != 1 || !stored[0].Pending {
		t.Errorf("stored: %+v %v, want the one answer, pending", stored, err)
	}
}

// TestPlayerSeesOwnAnswersByQuestion: a student's view holds their own
// committed answers under each question's index, nothing for questions
// they skipped or for indexes out of range, and nothing of anyone else's.
func TestPlayerSeesOwnAnswersByQuestion(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	room := f.live(t, examsim.ScoreCorrectness)
	me, _, err := room.Join(ctx, "Me", examsim.English, 0)
	if err != nil {
		t.Fatal(err)
	}
	other, _, _ := room.Join(ctx, "Other", examsim.Polish, 0)
	if err := room.Next(ctx, -1); err != nil {
		t.Fatal(err)
	}
	if err := room.Reveal(ctx, 0); err != nil { // question 1 skipped by both
		t.Fatal(err)
	}
	if err := room.Next(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := room.Answer(ctx, me.ID, 1, f.wrongOf(1), ""); err != nil {
		t.Fatal(err)
	}
	v, ok := room.Player(me.ID)
	if !ok {
		t.Fatal("the student is not in the room")
	}
	got := map[int]string{}
	for i := -1; i <= len(quizIDs); i++ {
		if a := v.Answer(i); a != nil {
			got[i] = a.Choice
		}
	}
	if diff := cmp.Diff(map[int]string{1: f.wrongOf(1)}, got); diff != "" {
		t.Errorf("the student's answers by question (-want +got):\n%s", diff)
	}
	if ov, _ := room.Player(other.ID); ov.Answers != nil || ov.Answer(1) != nil {
		t.Errorf("a student who answered nothing sees answers: %v", ov.Answers)
	}
}

// TestAnswerPastTheLastQuestion: a student who has answered every
// question of an assignment may still post the index after the last (the
// next one the room would give them); it is refused as a closed question,
// not a crash, and so is any index the quiz does not have.
func TestAnswerPastTheLastQuestion(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	room, err := f.hub.Create(ctx, f.quiz(t, examsim.ScoreCorrectness, examsim.ExplainOptional), f.host.ID,
		examsim.ModeAssignment, f.clock.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := room.Join(ctx, "Lan", examsim.Vietnamese, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := len(room.Snapshot().Questions)
	for i := range n {
		if _, err := room.Answer(ctx, p.ID, i, f.answerOf(i), ""); err != nil {
			t.Fatalf("question %d: %v", i, err)
		}
	}
	for _, index := range []int{n, n + 5, -1} {
		if _, err := room.Answer(ctx, p.ID, index, "A", ""); examsim.ErrorCode(err) != examsim.EINVALID {
			t.Errorf("index %d of %d questions: %v; want it refused as invalid", index, n, err)
		}
	}
}
