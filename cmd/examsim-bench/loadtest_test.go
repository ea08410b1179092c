package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/loadgen"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web"
	"github.com/examsim/examsim/web/webtest"
)

// TestLoadtestSmall runs the load generator against a real server in this
// process at a small size, so it cannot rot: every answer is acknowledged
// and none is lost. Speed is not checked here; BENCHMARKS.md keeps that.
func TestLoadtestSmall(t *testing.T) {
	app := webtest.Start(t, webtest.WithConfig(func(c *web.Config) { c.BenchCeiling = true }))
	if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), "loadteacher", "load-pass-1", examsim.RoleInstructor); err != nil {
		t.Fatal(err)
	}
	res, err := loadTest(context.Background(), loadConfig{URLs: []string{app.URL}, Instructor: "loadteacher", Password: "load-pass-1",
		Students: 50, Rooms: 1, Questions: 2, Think: time.Second, Bank: app.Bank, Ceiling: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res)
	if res.CeilingBefore <= 0 || res.CeilingAfter <= 0 || res.FanoutRatio() <= 0 {
		t.Errorf("the fan-out ceiling was not measured before and after the room: %s", res)
	}
	if res.Students != 50 || res.Answers != 100 || res.Acked != 100 || res.Lost != 0 {
		t.Errorf("result = %s; want 50 students, 100 answers, all acknowledged, none lost", res)
	}
	if res.Unrevealed != 0 {
		t.Errorf("the host pressed Next %d times before every student had the reveal: %s", res.Unrevealed, res)
	}
	if res.ServerP99Submit <= 0 {
		t.Errorf("the server's answer histogram was not read from /metrics: %s", res)
	}
	if res.ServerP99Fanout <= 0 || res.ServerCeilingP99 <= 0 {
		t.Errorf("the server's fan-out histograms (room and ceiling) were not read from /metrics: %s", res)
	}
	if res.RSSMB <= 0 {
		t.Errorf("the server's memory was not read from /metrics: %s", res)
	}
	for _, field := range []string{"instances=", "students=", "answers=", "answers_per_s=", "load_avg=", "acked=", "lost=", "p50_submit_ms=", "p99_submit_ms=", "server_p99_submit_ms=", "p99_fanout_ms=", "rss_mb=", "ceiling_p99_fanout_ms=", "fanout_ratio=",
		"server_p99_fanout_ms=", "server_ceiling_p99_fanout_ms=", "server_fanout_ratio="} {
		if !strings.Contains(res.String(), field) {
			t.Errorf("the summary line lacks %s: %s", field, res)
		}
	}
}

// TestLoadtestThroughItsBalancer gives the load generator several URLs
// (here one server twice, which PostgreSQL's instances look like from
// outside), or one with --balancer: it sends the students through its own
// alternating balancer, adds up the instances' /metrics, measures the
// fan-out ceiling through the balancer too, and still loses nothing.
func TestLoadtestThroughItsBalancer(t *testing.T) {
	app := webtest.Start(t, webtest.WithConfig(func(c *web.Config) { c.BenchCeiling = true }))
	if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), "loadteacher", "load-pass-1", examsim.RoleInstructor); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		urls      []string
		balancer  bool
		instances int
	}{
		{"two URLs", []string{app.URL, app.URL + "/"}, false, 2},
		{"one URL with --balancer", []string{app.URL}, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := loadTest(context.Background(), loadConfig{URLs: tc.urls, Balancer: tc.balancer, Instructor: "loadteacher",
				Password: "load-pass-1", Students: 20, Rooms: 2, Questions: 2, Think: time.Second, Bank: app.Bank, Ceiling: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Log(res)
			if res.Instances != tc.instances || res.Students != 40 || res.Acked != 80 || res.Lost != 0 || res.AnswersPerSec <= 0 {
				t.Errorf("result = %s; want %d instances, 40 students, 80 answers acknowledged, none lost", res, tc.instances)
			}
			if res.ServerP99Submit <= 0 || res.RSSMB <= 0 {
				t.Errorf("the instances' /metrics were not read: %s", res)
			}
			if res.CeilingBefore <= 0 || res.CeilingAfter <= 0 || !strings.Contains(res.String(), "fanout_ratio=") {
				t.Errorf("the fan-out ceiling was not measured through the balancer: %s", res)
			}
		})
	}
}

// TestCeilingAcrossTwoInstances measures the fan-out ceiling of two
// instances behind the load generator's balancer: the readers connect
// through it, so they spread over both, and each fan-out is fired at both,
// so every reader gets every round wherever it landed.
func TestCeilingAcrossTwoInstances(t *testing.T) {
	var urls []string
	for range 2 {
		urls = append(urls, webtest.Start(t, webtest.WithConfig(func(c *web.Config) { c.BenchCeiling = true })).URL)
	}
	lr := newLoadRun(loadConfig{URLs: urls, Questions: 3})
	defer lr.tr.CloseIdleConnections()
	stop, err := lr.startBalancer()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	var readers []*joinedStudent
	for range 40 {
		readers = append(readers, &joinedStudent{u: loadgen.NewVUser(lr.base, lr.tr)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p99, err := lr.measureCeiling(ctx, readers)
	if err != nil {
		t.Fatalf("the ceiling through two instances: %v", err)
	}
	if p99 <= 0 {
		t.Errorf("ceiling p99 = %v, want a time", p99)
	}
}

func TestLoadtestNeedsPassword(t *testing.T) {
	t.Setenv("EXAMSIM_LOADTEST_PASSWORD", "")
	var out, errBuf strings.Builder
	code := run(context.Background(), []string{"loadtest", "--instructor", "x"}, &out, &errBuf)
	errOut := errBuf.String()
	if code != 2 || !strings.Contains(errOut, "EXAMSIM_LOADTEST_PASSWORD") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestHistogramQuantile reads the p99 of the answers between two readings
// of the server's histogram, ignoring what was counted before.
func TestHistogramQuantile(t *testing.T) {
	const before = `examsim_classroom_answer_seconds_bucket{le="0.001"} 5
examsim_classroom_answer_seconds_bucket{le="0.01"} 10
examsim_classroom_answer_seconds_bucket{le="0.1"} 10
examsim_classroom_answer_seconds_bucket{le="+Inf"} 10
`
	const after = `examsim_classroom_answer_seconds_bucket{le="0.001"} 5
examsim_classroom_answer_seconds_bucket{le="0.01"} 108
examsim_classroom_answer_seconds_bucket{le="0.1"} 110
examsim_classroom_answer_seconds_bucket{le="+Inf"} 110
`
	b, err := parseHistogram([]byte(before), answerHistogram)
	if err != nil {
		t.Fatal(err)
	}
	a, err := parseHistogram([]byte(after), answerHistogram)
	if err != nil {
		t.Fatal(err)
	}
	if got := histogramQuantile(b, a, 0.99); got != 100*time.Millisecond {
		t.Errorf("p99 = %v, want 100ms (99 of the 100 new answers are under 10 ms, the 100th is not)", got)
	}
	if got := histogramQuantile(b, a, 0.5); got != 10*time.Millisecond {
		t.Errorf("p50 = %v, want 10ms", got)
	}
	if _, err := parseHistogram([]byte("other_metric 1\n"), answerHistogram); err == nil {
		t.Error("a page without the histogram parsed")
	}
}

// BenchmarkLoadtestInProcess plays one room of 2,000 students against a
// server in this process, for profiling the whole path (go test -bench
// LoadtestInProcess -benchtime 1x -cpuprofile cpu.out). The generator
// shares the process, so read its figures beside the separate-process runs
// in BENCHMARKS.md, not instead of them.
func BenchmarkLoadtestInProcess(b *testing.B) {
	app := webtest.Start(b, webtest.WithConfig(func(c *web.Config) {
		c.BenchCeiling = true
		// The test clock stands still, so the join bucket never refills:
		// room for joins retried after a 503 on a busy machine.
		c.RateLimits = web.DefaultRateLimits
		c.RateLimits.JoinPerClient.Burst = 10000
	}))
	if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), "loadteacher", "load-pass-1", examsim.RoleInstructor); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		res, err := loadTest(context.Background(), loadConfig{URLs: []string{app.URL}, Instructor: "loadteacher", Password: "load-pass-1",
			Students: 2000, Rooms: 1, Questions: 3, Bank: app.Bank, Ceiling: true})
		if err != nil {
			b.Fatal(err)
		}
		b.Log(res)
	}
}

// TestLoadtestResendsAsThePageDoes puts a proxy in front of the server that
// lets every other answer through but tells the student 503, retryable, as
// if the reply was lost: the load generator must send it again as the page
// does, and the room answers the resend with the answer it kept.
func TestLoadtestResendsAsThePageDoes(t *testing.T) {
	app := webtest.Start(t)
	if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), "loadteacher", "load-pass-1", examsim.RoleInstructor); err != nil {
		t.Fatal(err)
	}
	target, err := url.Parse(app.URL)
	if err != nil {
		t.Fatal(err)
	}
	var answers atomic.Int64
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		if !strings.HasSuffix(resp.Request.URL.Path, "/answer") || answers.Add(1)%2 == 0 {
			return nil
		}
		resp.Body.Close()
		body := `{"error":{"code":"unavailable","isRetryable":true}}`
		resp.StatusCode, resp.Status = http.StatusServiceUnavailable, "503 Service Unavailable"
		resp.Body, resp.ContentLength = io.NopCloser(strings.NewReader(body)), int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	front := httptest.NewServer(proxy)
	defer front.Close()
	res, err := loadTest(context.Background(), loadConfig{URLs: []string{front.URL}, Instructor: "loadteacher", Password: "load-pass-1",
		Students: 20, Rooms: 1, Questions: 2, Think: time.Second, Bank: app.Bank})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res)
	if res.Answers != 40 || res.Acked != 40 || res.Lost != 0 || res.Resent == 0 {
		t.Errorf("result = %s; want 40 answers, all acknowledged after resends, none lost", res)
	}
}
