package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/loadgen"
	"github.com/examsim/examsim/questions"
)

// loadConfig is one load test: Rooms rooms of Students students each,
// played through Questions questions over real HTTP.
type loadConfig struct {
	// URLs are the instances under test. With more than one, the test
	// starts its own balancer in front of them that alternates instances
	// on every request (the worst case for room ownership), and reads each
	// instance's /metrics directly.
	URLs []string
	// Balancer puts the balancer in front of a single instance too, so a
	// one-instance row pays the same extra hop as a many-instance one.
	Balancer   bool
	Instructor string
	Password   string
	Students   int // per room
	Rooms      int
	Questions  int
	// Think is the longest a student takes to answer; each waits a random
	// time up to it, as a room does.
	Think time.Duration
	// Seconds is the time per question the quizzes give.
	Seconds int
	// Bank is the server's question bank, which the quizzes are built from.
	Bank *questions.Bank
	Log  io.Writer // progress notes; nil for none
	// Ceiling measures the fan-out ceiling (serve --bench-ceiling on every
	// instance) with the same readers before and after the room plays.
	Ceiling bool
}

// loadResult is what the summary line reports.
type loadResult struct {
	Instances                      int
	Students, Answers, Acked, Lost int
	P50Submit, P99Submit           time.Duration
	P99Fanout                      time.Duration
	// AnswersPerSec is the acknowledged answers over the time the rooms
	// played, from the first question to the last answer.
	AnswersPerSec float64
	// LoadAvg is the machine's load averages (1, 5, 15 minutes) when the
	// rooms had played.
	LoadAvg string
	// ServerP99Submit is the p99 of the server's own answer histogram over
	// the run (a bucket's upper bound); -1 when /metrics could not be read.
	ServerP99Submit time.Duration
	// ServerP99Fanout and ServerCeilingP99 are the p99s of the server's own
	// fan-out histograms (a question from the host's control to each phone's
	// write; the ceiling's from its request to each write): the fan-out
	// without what the readers add. -1 when /metrics could not be read.
	ServerP99Fanout, ServerCeilingP99 time.Duration
	RSSMB                             float64 // peak server RSS; -1 when /metrics could not be read
	// CeilingBefore and CeilingAfter are the fan-out ceiling's p99 before
	// and after the room played; zero when not measured.
	CeilingBefore, CeilingAfter time.Duration
	// Unrevealed counts the reveals the host stopped waiting for before
	// every student's stream had shown them; a Next after one of those is
	// timed from a busy room.
	Unrevealed int
	// Resent counts answers sent again after a retryable refusal or a
	// lost connection; FirstError is the first answer given up on.
	Resent     int
	FirstError string
}

// FanoutRatio is the room's p99 fan-out over the ceiling's (the mean of
// before and after): 1 is as fast as the machine delivers fixed bytes to
// these readers at all. Zero when the ceiling was not measured.
func (r loadResult) FanoutRatio() float64 {
	ceiling := (r.CeilingBefore + r.CeilingAfter) / 2
	if ceiling <= 0 {
		return 0
	}
	return float64(r.P99Fanout) / float64(ceiling)
}

func (r loadResult) String() string {
	ms := func(d time.Duration) string { return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) }
	rss := "unknown"
	if r.RSSMB >= 0 {
		rss = strconv.FormatFloat(r.RSSMB, 'f', 1, 64)
	}
	server := "unknown"
	if r.ServerP99Submit >= 0 {
		server = ms(r.ServerP99Submit)
	}
	line := fmt.Sprintf("instances=%d students=%d answers=%d acked=%d lost=%d answers_per_s=%.1f p50_submit_ms=%s p99_submit_ms=%s server_p99_submit_ms=%s p99_fanout_ms=%s rss_mb=%s load_avg=%s",
		r.Instances, r.Students, r.Answers, r.Acked, r.Lost, r.AnswersPerSec, ms(r.P50Submit), ms(r.P99Submit), server, ms(r.P99Fanout), rss, strings.ReplaceAll(r.LoadAvg, " ", "/"))
	if r.Resent > 0 {
		line += fmt.Sprintf(" resent=%d", r.Resent)
	}
	if r.Acked < r.Answers && r.FirstError != "" {
		line += fmt.Sprintf(" first_error=%q", r.FirstError)
	}
	if r.Unrevealed > 0 {
		line += fmt.Sprintf(" unrevealed=%d", r.Unrevealed)
	}
	if r.CeilingBefore > 0 {
		line += fmt.Sprintf(" ceiling_p99_fanout_ms=%s/%s fanout_ratio=%.2f", ms(r.CeilingBefore), ms(r.CeilingAfter), r.FanoutRatio())
		if r.ServerP99Fanout > 0 && r.ServerCeilingP99 > 0 {
			line += fmt.Sprintf(" server_p99_fanout_ms=%s server_ceiling_p99_fanout_ms=%s server_fanout_ratio=%.2f",
				ms(r.ServerP99Fanout), ms(r.ServerCeilingP99), float64(r.ServerP99Fanout)/float64(r.ServerCeilingP99))
		}
	}
	return line
}

func runLoadtest(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := loadConfig{}
	urls := fs.String("url", "http://127.0.0.1:8080", "the running server's base URL; several, comma-separated, for instances on one PostgreSQL, balanced alternately by the test")
	fs.StringVar(&cfg.Instructor, "instructor", "", "an instructor account (make one with examsim user add NAME --role instructor); its password comes from EXAMSIM_LOADTEST_PASSWORD")
	fs.IntVar(&cfg.Students, "students", 50, "students in each room")
	fs.IntVar(&cfg.Rooms, "rooms", 1, "rooms played at once")
	fs.IntVar(&cfg.Questions, "questions", 5, "questions each room plays")
	fs.DurationVar(&cfg.Think, "think", 4*time.Second, "the longest a student takes to answer")
	fs.BoolVar(&cfg.Balancer, "balancer", false, "go through the test's own balancer with one URL too (it always does with several), for a like-for-like row")
	bankDir := fs.String("bank", "", "the server's question directory, when it was started with --questions (default: the embedded bank)")
	fs.BoolVar(&cfg.Ceiling, "ceiling", true, "measure the servers' fan-out ceiling with the same readers before and after the room (every instance needs --bench-ceiling)")
	verbose := fs.Bool("v", false, "print progress to stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg.Password = os.Getenv("EXAMSIM_LOADTEST_PASSWORD")
	for _, u := range strings.Split(*urls, ",") {
		if u = strings.TrimSpace(u); u != "" {
			cfg.URLs = append(cfg.URLs, u)
		}
	}
	switch {
	case len(cfg.URLs) == 0:
		fmt.Fprintln(stderr, "examsim-bench loadtest: --url is empty; give the server's base URL, or several comma-separated")
		return 2
	case cfg.Instructor == "":
		fmt.Fprintln(stderr, "examsim-bench loadtest: --instructor is required (make one with examsim user add NAME --role instructor)")
		return 2
	case cfg.Password == "":
		fmt.Fprintln(stderr, "examsim-bench loadtest: set EXAMSIM_LOADTEST_PASSWORD to the instructor's password")
		return 2
	case cfg.Students < 1 || cfg.Rooms < 1 || cfg.Questions < 1:
		fmt.Fprintln(stderr, "examsim-bench loadtest: --students, --rooms and --questions must be at least 1")
		return 2
	}
	if *verbose {
		cfg.Log = stderr
	}
	src, name := questions.Embedded()
	if *bankDir != "" {
		src, name = os.DirFS(*bankDir), *bankDir
	}
	if cfg.Bank, _ = questions.Load(src, name); cfg.Bank == nil {
		fmt.Fprintf(stderr, "examsim-bench loadtest: the question bank %s does not load; check it with examsim questions check\n", name)
		return 1
	}
	res, err := loadTest(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "examsim-bench loadtest: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, res)
	if res.Lost > 0 {
		return 1
	}
	return 0
}

var (
	rssLine       = regexp.MustCompile(`(?m)^process_resident_memory_bytes ([0-9.e+]+)$`)
	loadExplained = map[string][]string{
		"en": {"The tool should return isError with a category and isRetryable so the agent knows whether to retry.",
			"A valid empty result is not an access failure, so retrying will not help.",
			"Validation errors need the caller to fix the input; retrying the same request fails again."},
		"vi": {"Tool nên trả về isError cùng loại lỗi và isRetryable để agent biết có nên thử lại hay không.",
			"Kết quả rỗng hợp lệ không phải lỗi truy cập, nên thử lại không giúp gì."},
		"pl": {"Narzędzie powinno zwrócić isError z kategorią i isRetryable, żeby agent wiedział, czy ponowić.",
			"Prawidłowy pusty wynik to nie błąd dostępu, więc ponawianie nic nie da."},
		"th": {"tool ควรส่ง isError พร้อมประเภทข้อผิดพลาดและ isRetryable เพื่อให้ agent รู้ว่าควร retry หรือไม่",
			"ผลลัพธ์ว่างที่ถูกต้องไม่ใช่ access failure การ retry จึงไม่ช่วย"},
	}
	loadLangs = []string{"vi", "pl", "th", "en"}
)

// roomRun is one room's shared state during the test.
type roomRun struct {
	id, code string
	host     *loadgen.VUser
	started  []atomic.Int64 // unix nanos of each question's "next"
	done     []chan struct{}
	left     []atomic.Int64 // students yet to finish each question
	// revealed closes when every student's stream has shown a question's
	// reveal; revealLeft counts those yet to.
	revealed   []chan struct{}
	revealLeft []atomic.Int64
}

type sample struct {
	mu     sync.Mutex
	submit []time.Duration
	fanout []time.Duration
}

func (s *sample) add(submit, fanout time.Duration) {
	s.mu.Lock()
	if submit > 0 {
		s.submit = append(s.submit, submit)
	}
	if fanout > 0 {
		s.fanout = append(s.fanout, fanout)
	}
	s.mu.Unlock()
}

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// loadRun is one load test's shared state: the connections, the rooms and
// what the students measured.
type loadRun struct {
	cfg   loadConfig
	base  string   // where the students go: the one instance, or the balancer
	each  []string // every instance, for its /metrics
	tr    *http.Transport
	host  *loadgen.VUser
	tok   string // the host's CSRF token, for its quiz forms and controls
	rooms []*roomRun

	answers, acked atomic.Int64
	unrevealed     atomic.Int64 // reveals not seen by every student when the host moved on
	resent         atomic.Int64 // answers sent again after a retryable refusal
	stats          sample
	ackedMu        sync.Mutex
	ackedSet       map[string]map[[2]string]bool // room -> (nickname, question number)
	joinRetries    atomic.Int64
	firstErr       atomic.Pointer[error] // the first join or answer error (errors of several types, so not an atomic.Value)
	peakRSS        atomic.Uint64
}

// joinedStudent is one student who joined a room, with the token its
// answer form echoes.
type joinedStudent struct {
	u    *loadgen.VUser
	rr   *roomRun
	nick string
	lang string
	csrf string
}

func (lr *loadRun) logf(format string, a ...any) {
	if lr.cfg.Log != nil {
		fmt.Fprintf(lr.cfg.Log, "loadtest: "+format+"\n", a...)
	}
}

// loadTest runs the test and returns its figures. Every student joins over
// HTTP, holds the room's event stream, and answers each question when it
// arrives there after a random think time; lost counts acknowledged
// answers missing from the instructor's CSV export afterwards.
func loadTest(ctx context.Context, cfg loadConfig) (loadResult, error) {
	if cfg.Think <= 0 {
		cfg.Think = 4 * time.Second
	}
	if cfg.Seconds == 0 {
		cfg.Seconds = 120
	}
	lr := newLoadRun(cfg)
	defer lr.tr.CloseIdleConnections()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if len(cfg.URLs) > 1 || cfg.Balancer {
		stop, err := lr.startBalancer()
		if err != nil {
			return loadResult{}, err
		}
		defer stop()
	}

	rssErr := lr.watchPeakRSS(ctx)
	before := map[string][]histBucket{}
	var histErr error
	for _, name := range serverHistograms {
		if before[name], histErr = lr.readHistogram(ctx, name); histErr != nil {
			break
		}
	}
	qids, err := lr.loginHost(ctx)
	if err != nil {
		return loadResult{}, err
	}
	if err := lr.openRooms(ctx, qids); err != nil {
		return loadResult{}, err
	}
	lr.logf("%d rooms ready with %d questions; joining %d students", cfg.Rooms, cfg.Questions, cfg.Students*cfg.Rooms)
	students, err := lr.joinStudents(ctx)
	if err != nil {
		return loadResult{}, err
	}
	lr.logf("%d students joined (%d joins retried after a 503); opening their event streams", len(students), lr.joinRetries.Load())
	var res loadResult
	if cfg.Ceiling {
		if res.CeilingBefore, err = lr.measureCeiling(ctx, students); err != nil {
			return loadResult{}, fmt.Errorf("fan-out ceiling before the room: %w", err)
		}
		lr.logf("fan-out ceiling before: p99 %v", res.CeilingBefore)
	}
	playing := lr.startStudents(ctx, students)
	lr.logf("all streams open; playing")
	began := time.Now()
	if err := lr.hostRooms(ctx); err != nil {
		return loadResult{}, err
	}
	playing.Wait()
	played := time.Since(began)
	res.LoadAvg = loadAverage()
	if cfg.Ceiling {
		if res.CeilingAfter, err = lr.measureCeiling(ctx, students); err != nil {
			return loadResult{}, fmt.Errorf("fan-out ceiling after the room: %w", err)
		}
		lr.logf("fan-out ceiling after: p99 %v", res.CeilingAfter)
	}
	lr.logf("played; reading the results back")

	res.Instances, res.Students, res.Answers, res.Acked = len(lr.each), len(students), int(lr.answers.Load()), int(lr.acked.Load())
	res.Unrevealed, res.Resent = int(lr.unrevealed.Load()), int(lr.resent.Load())
	if e := lr.firstError(); e != nil {
		res.FirstError = e.Error()
	}
	res.AnswersPerSec = float64(res.Acked) / played.Seconds()
	if res.Lost, err = lr.countLost(ctx); err != nil {
		return loadResult{}, err
	}
	res.P50Submit, res.P99Submit = percentile(lr.stats.submit, 50), percentile(lr.stats.submit, 99)
	res.P99Fanout = percentile(lr.stats.fanout, 99)
	res.ServerP99Submit = lr.serverP99(ctx, answerHistogram, before, histErr)
	res.ServerP99Fanout = lr.serverP99(ctx, fanoutHistogram, before, histErr)
	res.ServerCeilingP99 = lr.serverP99(ctx, ceilingHistogram, before, histErr)
	cancel()
	res.RSSMB = lr.peakRSSMB(rssErr)
	if res.Acked < res.Answers {
		lr.logf("%d answers were not acknowledged; the first: %v", res.Answers-res.Acked, lr.firstError())
	}
	return res, nil
}

// newLoadRun makes the shared transport, sized so every student keeps its
// connections open.
func newLoadRun(cfg loadConfig) *loadRun {
	total := cfg.Students * cfg.Rooms
	tr := &http.Transport{
		Proxy: nil, DialContext: (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns: 4 * total, MaxIdleConnsPerHost: 4 * total, IdleConnTimeout: 90 * time.Second, DisableCompression: true,
	}
	lr := &loadRun{cfg: cfg, tr: tr, ackedSet: map[string]map[[2]string]bool{}}
	for _, u := range cfg.URLs {
		lr.each = append(lr.each, strings.TrimRight(u, "/"))
	}
	lr.base = lr.each[0]
	return lr
}

// startBalancer puts an alternating balancer on a loopback port in front
// of the instances and sends the students to it; stop closes it.
func (lr *loadRun) startBalancer() (stop func(), err error) {
	lb, err := loadgen.NewAlternating(lr.tr, lr.each...)
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("starting the balancer: %w", err)
	}
	srv := &http.Server{Handler: lb, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }() // ends with ErrServerClosed at stop
	lr.base = "http://" + l.Addr().String()
	lr.logf("balancing alternately over %s at %s", strings.Join(lr.each, ", "), lr.base)
	return func() { _ = srv.Close() }, nil // the run's figures are taken; its connections may go
}

// watchPeakRSS samples the server's memory through the whole run, keeping
// the peak; the channel gets the last read error once ctx ends.
func (lr *loadRun) watchPeakRSS(ctx context.Context) <-chan error {
	rssErr := make(chan error, 1)
	go func() {
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		var last error
		for {
			if b, err := lr.readRSS(ctx); err == nil {
				for old := lr.peakRSS.Load(); b > old && !lr.peakRSS.CompareAndSwap(old, b); old = lr.peakRSS.Load() {
				}
			} else {
				last = err
			}
			select {
			case <-ctx.Done():
				rssErr <- last
				return
			case <-t.C:
			}
		}
	}()
	return rssErr
}

// loginHost logs the instructor in, keeps its quiz form token and returns
// the first cfg.Questions questions that exist in all four languages.
func (lr *loadRun) loginHost(ctx context.Context) ([]string, error) {
	cfg := lr.cfg
	lr.host = loadgen.NewVUser(lr.base, lr.tr)
	if err := lr.host.Login(ctx, cfg.Instructor, cfg.Password); err != nil {
		return nil, fmt.Errorf("%w (check the name and EXAMSIM_LOADTEST_PASSWORD)", err)
	}
	var err error
	if lr.tok, err = lr.host.FormToken(ctx, "/class/quizzes/new"); err != nil {
		return nil, fmt.Errorf("%w (is %s an instructor?)", err, cfg.Instructor)
	}
	var qids []string
	for _, q := range cfg.Bank.Questions {
		if inAllLangs(q) && len(qids) < cfg.Questions {
			qids = append(qids, q.ID)
		}
	}
	if len(qids) < cfg.Questions {
		return nil, fmt.Errorf("the bank has only %d questions in all four languages; ask for fewer", len(qids))
	}
	return qids, nil
}

// openRooms creates one quiz of qids per room and starts a live session of
// each, with the presenter screen open.
func (lr *loadRun) openRooms(ctx context.Context, qids []string) error {
	lr.rooms = make([]*roomRun, lr.cfg.Rooms)
	for r := range lr.rooms {
		rr, err := lr.openRoom(ctx, r, qids)
		if err != nil {
			return err
		}
		lr.rooms[r] = rr
		lr.ackedSet[rr.id] = map[[2]string]bool{}
		// The presenter screen is open through the whole run, as in class.
		go holdStream(ctx, lr.host, "/class/s/"+rr.id+"/host/events", nil)
	}
	return nil
}

func (lr *loadRun) openRoom(ctx context.Context, r int, qids []string) (*roomRun, error) {
	n := lr.cfg.Questions
	live, err := lr.host.OpenLiveRoom(ctx, lr.tok, loadgen.Quiz{Title: fmt.Sprintf("Load test room %d", r+1),
		Scoring: "speed", Seconds: 120, QuestionIDs: qids})
	if err != nil {
		return nil, err
	}
	rr := &roomRun{id: live.ID, code: live.Code, host: lr.host,
		started: make([]atomic.Int64, n), done: make([]chan struct{}, n), left: make([]atomic.Int64, n),
		revealed: make([]chan struct{}, n), revealLeft: make([]atomic.Int64, n)}
	for q := range rr.done {
		rr.done[q] = make(chan struct{})
		rr.left[q].Store(int64(lr.cfg.Students))
		rr.revealed[q] = make(chan struct{})
		rr.revealLeft[q].Store(int64(lr.cfg.Students))
	}
	return rr, nil
}

// joinStudents joins cfg.Students students to each room, 32 at a time.
func (lr *loadRun) joinStudents(ctx context.Context) ([]*joinedStudent, error) {
	students := make([]*joinedStudent, 0, lr.cfg.Students*lr.cfg.Rooms)
	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		joinErrs atomic.Int64
	)
	sem := make(chan struct{}, 32)
	for r, rr := range lr.rooms {
		for i := 0; i < lr.cfg.Students; i++ {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				st := &joinedStudent{u: loadgen.NewVUser(lr.base, lr.tr), rr: rr, nick: fmt.Sprintf("r%d-s%d", r+1, i+1), lang: loadLangs[i%len(loadLangs)]}
				if err := lr.join(ctx, st); err != nil {
					joinErrs.Add(1)
					lr.firstErr.CompareAndSwap(nil, &err)
					return
				}
				mu.Lock()
				students = append(students, st)
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	if n := joinErrs.Load(); n > 0 {
		return nil, fmt.Errorf("%d students could not join; the first: %v", n, lr.firstError())
	}
	return students, nil
}

// join joins st to its room and keeps the play page's form token. A
// student told "try again in a moment" (503) taps Join again, a few times,
// as in a browser.
func (lr *loadRun) join(ctx context.Context, st *joinedStudent) error {
	var err error
	for try := 0; try < 5; try++ {
		if st.csrf, err = st.u.Join(ctx, st.rr.code, st.nick, st.lang); !loadgen.Busy(err) {
			return err
		}
		lr.joinRetries.Add(1)
		time.Sleep(time.Duration(try+1) * 500 * time.Millisecond)
	}
	return err
}

// arrivedQuestion is a question as a student's event stream brought it.
type arrivedQuestion struct {
	index   int
	letters []string
}

// startStudents opens every student's event stream and sets each to
// answer the questions it brings. It returns once all streams are open;
// the WaitGroup is done when every student has played.
func (lr *loadRun) startStudents(ctx context.Context, students []*joinedStudent) *sync.WaitGroup {
	var ready sync.WaitGroup
	playing := &sync.WaitGroup{}
	for _, st := range students {
		ready.Add(1)
		playing.Add(1)
		arrived := make(chan arrivedQuestion, lr.cfg.Questions)
		go holdStream(ctx, st.u, "/class/s/"+st.rr.id+"/events", lr.questionArrivals(st, ready.Done, arrived))
		go func() {
			defer playing.Done()
			lr.playStudent(ctx, st, arrived)
		}()
	}
	ready.Wait()
	return playing
}

// questionArrivals is a student's stream handler: it calls opened on the
// first event, records each question's fan-out time, sends each question
// once to arrived, and counts the student's first sight of each reveal.
func (lr *loadRun) questionArrivals(st *joinedStudent, opened func(), arrived chan<- arrivedQuestion) func(event, data string, at time.Time) {
	seen := make([]bool, lr.cfg.Questions)
	sawReveal := make([]bool, lr.cfg.Questions)
	var once sync.Once
	return func(event, data string, at time.Time) {
		once.Do(opened)
		if event != "state" {
			return
		}
		var state struct {
			Phase   string   `json:"phase"`
			Index   int      `json:"index"`
			Choices []string `json:"choices"`
		}
		if json.Unmarshal([]byte(data), &state) != nil {
			return
		}
		q := state.Index
		if q < 0 || q >= lr.cfg.Questions {
			return
		}
		if state.Phase == "reveal" && !sawReveal[q] {
			sawReveal[q] = true
			if st.rr.revealLeft[q].Add(-1) == 0 {
				close(st.rr.revealed[q])
			}
			return
		}
		if state.Phase != "question" || seen[q] {
			return
		}
		seen[q] = true
		if t0 := st.rr.started[q].Load(); t0 > 0 {
			lr.stats.add(0, at.Sub(time.Unix(0, t0)))
		}
		arrived <- arrivedQuestion{q, state.Choices}
	}
}

// playStudent answers each arriving question after a random think time.
func (lr *loadRun) playStudent(ctx context.Context, st *joinedStudent, arrived <-chan arrivedQuestion) {
	rng := rand.New(rand.NewPCG(uint64(len(st.nick)), uint64(time.Now().UnixNano()))) // #nosec G404 G115 -- think times of simulated students
	for got := 0; got < lr.cfg.Questions; got++ {
		var aq arrivedQuestion
		select {
		case aq = <-arrived:
		case <-ctx.Done():
			return
		}
		think := 300*time.Millisecond + time.Duration(rng.Int64N(int64(lr.cfg.Think-300*time.Millisecond)+1))
		select {
		case <-time.After(think):
		case <-ctx.Done():
			return
		}
		if len(aq.letters) > 0 {
			lr.submitAnswer(ctx, st, aq, rng)
		}
		if st.rr.left[aq.index].Add(-1) == 0 {
			close(st.rr.done[aq.index])
		}
	}
}

// submitAnswer posts a random choice and explanation, timing it and
// recording it as acknowledged when the server says ok. Like the page, it
// sends the answer again after a retryable refusal, a server error or a
// lost connection (waiting 0.5 s, 1 s, 2 s, ...); the room answers a
// resend of an answer it kept with what it kept.
func (lr *loadRun) submitAnswer(ctx context.Context, st *joinedStudent, aq arrivedQuestion, rng *rand.Rand) {
	choice := aq.letters[rng.IntN(len(aq.letters))]
	pool := loadExplained[st.lang]
	explanation := pool[rng.IntN(len(pool))]
	lr.answers.Add(1)
	t := time.Now()
	var err error
	for try := 0; ; try++ {
		var status int
		status, err = st.u.Answer(ctx, st.rr.id, st.csrf, aq.index, choice, explanation)
		if err == nil || try == answerTries-1 || !resendable(status, err) || ctx.Err() != nil {
			break
		}
		lr.resent.Add(1)
		time.Sleep(time.Duration(500<<try) * time.Millisecond)
	}
	took := time.Since(t)
	if err != nil {
		lr.firstErr.CompareAndSwap(nil, &err)
		return
	}
	lr.acked.Add(1)
	lr.stats.add(took, 0)
	lr.ackedMu.Lock()
	lr.ackedSet[st.rr.id][[2]string{st.nick, strconv.Itoa(aq.index + 1)}] = true
	lr.ackedMu.Unlock()
}

// firstError is the first join or answer error, nil when there was none.
func (lr *loadRun) firstError() error {
	if p := lr.firstErr.Load(); p != nil {
		return *p
	}
	return nil
}

// answerTries is how often a student sends one answer before giving up:
// the page keeps trying, but a load run has to end.
const answerTries = 6

// resendable says whether the page would send an answer again after this
// reply: no reply at all, a server error, or a refusal marked retryable.
func resendable(status int, err error) bool {
	var se *loadgen.StatusError
	if !errors.As(err, &se) {
		return true // no reply: the connection failed
	}
	return status >= 500 || strings.Contains(se.Body, `"isRetryable":true`)
}

// hostRooms has each host play its room at once and returns the first
// host error.
func (lr *loadRun) hostRooms(ctx context.Context) error {
	var hosts sync.WaitGroup
	hostErr := make(chan error, lr.cfg.Rooms)
	for _, rr := range lr.rooms {
		hosts.Add(1)
		go func() {
			defer hosts.Done()
			if err := lr.hostRoom(ctx, rr); err != nil {
				hostErr <- err
			}
		}()
	}
	hosts.Wait()
	close(hostErr)
	return <-hostErr
}

// hostRoom plays one room: next, wait for every student, reveal, wait for
// the reveal to reach every student; then the podium.
func (lr *loadRun) hostRoom(ctx context.Context, rr *roomRun) error {
	for q := 0; q < lr.cfg.Questions; q++ {
		rr.started[q].Store(time.Now().UnixNano())
		if err := lr.control(ctx, rr, "next", q-1); err != nil {
			return err
		}
		select {
		case <-rr.done[q]:
		case <-time.After(time.Duration(lr.cfg.Seconds)*time.Second + lr.cfg.Think):
			lr.logf("room %s question %d: %d students never answered", rr.id, q+1, rr.left[q].Load())
		case <-ctx.Done():
			return nil
		}
		if err := lr.control(ctx, rr, "reveal", q); err != nil {
			return err
		}
		// A teacher talks over the reveal before pressing Next, so the next
		// question is timed from a quiet room, as each ceiling round is.
		select {
		case <-rr.revealed[q]:
		case <-time.After(time.Duration(lr.cfg.Seconds)*time.Second + lr.cfg.Think):
			lr.unrevealed.Add(1)
			lr.logf("room %s question %d: %d students never saw the reveal", rr.id, q+1, rr.revealLeft[q].Load())
		case <-ctx.Done():
			return nil
		}
	}
	return lr.control(ctx, rr, "next", lr.cfg.Questions-1) // the podium
}

// control presses a host control of rr. A control told 503 is pressed
// again, as a host would: the "from" index makes a repeat act once.
func (lr *loadRun) control(ctx context.Context, rr *roomRun, action string, from int) error {
	var err error
	for try := 0; try < 5; try++ {
		if err = rr.host.Control(ctx, rr.id, lr.tok, action, from); !loadgen.Busy(err) {
			return err
		}
		time.Sleep(time.Duration(try+1) * 500 * time.Millisecond)
	}
	return err
}

// countLost counts acknowledged answers missing from the rooms' exports.
func (lr *loadRun) countLost(ctx context.Context) (int, error) {
	lost := 0
	for _, rr := range lr.rooms {
		have, err := lr.exportedAnswers(ctx, rr)
		if err != nil {
			return 0, err
		}
		for k := range lr.ackedSet[rr.id] {
			if !have[k] {
				lost++
			}
		}
	}
	return lost, nil
}

// exportedAnswers reads rr's CSV export as the set of (nickname, question
// number) it lists as answered.
func (lr *loadRun) exportedAnswers(ctx context.Context, rr *roomRun) (map[[2]string]bool, error) {
	status, body, _, err := lr.host.Get(ctx, "/class/s/"+rr.id+"/results.csv")
	if err != nil || status != 200 {
		return nil, fmt.Errorf("export: status %d %v", status, err)
	}
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\uFEFF"))).ReadAll()
	if err != nil || len(rows) == 0 {
		return nil, fmt.Errorf("export: %v", err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	have := map[[2]string]bool{}
	for _, row := range rows[1:] {
		if row[col["status"]] == "answered" {
			have[[2]string{row[col["nickname"]], row[col["question_number"]]}] = true
		}
	}
	return have, nil
}

// The server's histograms a load run reads (web/internal/metrics).
const (
	answerHistogram  = "examsim_classroom_answer_seconds"
	fanoutHistogram  = "examsim_classroom_fanout_seconds"
	ceilingHistogram = "examsim_ceiling_fanout_seconds"
)

var serverHistograms = []string{answerHistogram, fanoutHistogram, ceilingHistogram}

// serverP99 is the p99 of the server's histogram name since before; -1
// when either read failed.
func (lr *loadRun) serverP99(ctx context.Context, name string, before map[string][]histBucket, beforeErr error) time.Duration {
	after, err := lr.readHistogram(ctx, name)
	if err == nil && beforeErr == nil {
		return histogramQuantile(before[name], after, 0.99)
	}
	lr.logf("the server's histogram %s could not be read: %v %v", name, beforeErr, err)
	return -1
}

// peakRSSMB is the peak server memory in MiB; -1 when it was never read.
// Call it after the sampler's context ends.
func (lr *loadRun) peakRSSMB(rssErr <-chan error) float64 {
	if peak := lr.peakRSS.Load(); peak > 0 {
		return float64(peak) / (1 << 20)
	}
	if err := <-rssErr; err != nil {
		lr.logf("server memory unknown: %v", err)
	}
	return -1
}

// holdStream reads an event stream until ctx ends, reconnecting as a
// browser's EventSource does, and hands each event to on.
func holdStream(ctx context.Context, u *loadgen.VUser, path string, on func(event, data string, at time.Time)) {
	for ctx.Err() == nil {
		resp, err := u.OpenStream(ctx, path)
		if err == nil && resp.StatusCode != 200 {
			_ = resp.Body.Close() // the status is the error to report
			err = errors.New(resp.Status)
		}
		if err == nil {
			// A broken connection ends the stream as the server's end does:
			// the browser reconnects either way.
			_ = loadgen.ReadEvents(resp.Body, func(event, data string) {
				if on != nil {
					on(event, data, time.Now())
				}
			})
			_ = resp.Body.Close() // read to its end: nothing left to check
		}
		select {
		case <-ctx.Done():
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func inAllLangs(q *questions.Question) bool {
	for _, l := range examsim.Langs {
		if q.Text(l) == nil {
			return false
		}
	}
	return true
}

// readMetrics reads the server's Prometheus text from /metrics.
func readMetrics(ctx context.Context, base string, tr *http.Transport) ([]byte, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	if tok := os.Getenv("EXAMSIM_METRICS_TOKEN"); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := (&http.Client{Transport: tr, Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != 200 {
		err = fmt.Errorf("/metrics: %s", resp.Status)
	}
	return b, err
}

// readRSS reads the instances' resident memory, summed, from their
// /metrics.
func (lr *loadRun) readRSS(ctx context.Context) (uint64, error) {
	var sum uint64
	for _, base := range lr.each {
		b, err := readMetrics(ctx, base, lr.tr)
		if err != nil {
			return 0, err
		}
		m := rssLine.FindSubmatch(b)
		if m == nil {
			return 0, errors.New("/metrics has no process_resident_memory_bytes")
		}
		f, err := strconv.ParseFloat(string(m[1]), 64)
		if err != nil {
			return 0, err
		}
		sum += uint64(f)
	}
	return sum, nil
}

// histBucket is one cumulative bucket of a Prometheus histogram.
type histBucket struct {
	le    float64 // upper bound in seconds; +Inf for the last
	count float64
}

// readHistogram reads the instances' histograms of that name, added bucket
// by bucket (every instance has the same buckets): an answer or a stream's
// write is timed on the instance that served it.
func (lr *loadRun) readHistogram(ctx context.Context, name string) ([]histBucket, error) {
	var sum []histBucket
	for _, base := range lr.each {
		b, err := readMetrics(ctx, base, lr.tr)
		if err != nil {
			return nil, err
		}
		h, err := parseHistogram(b, name)
		if err != nil {
			return nil, err
		}
		if sum == nil {
			sum = h
			continue
		}
		if len(h) != len(sum) {
			return nil, fmt.Errorf("%s/metrics: %d %s buckets, another instance %d", base, len(h), name, len(sum))
		}
		for i := range sum {
			sum[i].count += h[i].count
		}
	}
	return sum, nil
}

func parseHistogram(b []byte, name string) ([]histBucket, error) {
	bucket := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `_bucket\{le="([^"]+)"\} ([0-9.e+]+)$`)
	var out []histBucket
	for _, m := range bucket.FindAllSubmatch(b, -1) {
		le, err1 := strconv.ParseFloat(string(m[1]), 64) // ParseFloat reads "+Inf"
		n, err2 := strconv.ParseFloat(string(m[2]), 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("/metrics: bad bucket %q", m[0])
		}
		out = append(out, histBucket{le, n})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("/metrics has no %s histogram", name)
	}
	return out, nil
}

// histogramQuantile returns the q-quantile of what was counted between two
// readings of a histogram, as the upper bound of the bucket it falls in (so
// it errs high by at most one bucket's width: 25% for answers, 10% for
// fan-out).
func histogramQuantile(before, after []histBucket, q float64) time.Duration {
	if len(before) != len(after) || len(after) == 0 {
		return -1
	}
	total := after[len(after)-1].count - before[len(before)-1].count
	if total <= 0 {
		return 0
	}
	for i := range after {
		if after[i].count-before[i].count >= q*total {
			if math.IsInf(after[i].le, 1) && i > 0 {
				return time.Duration(after[i-1].le * float64(time.Second))
			}
			return time.Duration(after[i].le * float64(time.Second))
		}
	}
	return -1
}
