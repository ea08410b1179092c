package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/questions/banktest"
)

// benchWebConfig is one `examsim-bench web` run: how wrk loads each page,
// and how big a bank the startup is measured with.
type benchWebConfig struct {
	Examsim     string        // the examsim binary whose serve is measured
	Wrk         string        // the wrk program
	Duration    time.Duration // per URL
	Connections int
	Threads     int
	BankSizes   []int         // questions in the replicated banks startup is also timed with
	Starts      int           // server starts timed per bank
	Idle        time.Duration // from ready to reading the idle RSS
	Cookies     bool
}

// runBenchWeb measures the whole app as BENCHMARKS.md reports it: startup to
// ready and idle RSS of real `examsim serve` processes, then wrk against
// /, a practice question and /healthz beside the server's own fixed-bytes
// ceiling (serve --bench-ceiling), each page's throughput as a ratio to it.
// Everything runs on loopback and stops by itself.
func runBenchWeb(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := benchWebConfig{}
	fs.StringVar(&cfg.Examsim, "examsim", "bin/examsim", "the examsim binary to start (make build puts it in bin/)")
	fs.StringVar(&cfg.Wrk, "wrk", "wrk", "the wrk program (Debian: apt-get install wrk)")
	fs.DurationVar(&cfg.Duration, "duration", 10*time.Second, "how long wrk loads each URL (1s to 2m)")
	fs.IntVar(&cfg.Connections, "connections", 200, "open connections wrk keeps")
	fs.IntVar(&cfg.Threads, "threads", 2, "wrk threads")
	bankSizes := fs.String("bank-size", "200,1000", "questions in the replicated banks startup is also timed with, comma-separated (200 questions are 1,000 files)")
	fs.IntVar(&cfg.Starts, "starts", 5, "server starts timed for each bank (the median is reported)")
	fs.DurationVar(&cfg.Idle, "idle", 3*time.Second, "how long after ready the idle RSS is read (serve checks the bank's rubrics just after it listens: about half a second for 1,000 questions on a quiet machine)")
	fs.BoolVar(&cfg.Cookies, "cookies", false, "send the cookies a returning visitor has (language and CSRF) instead of none")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	for _, f := range strings.Split(*bankSizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 5000 {
			fmt.Fprintf(stderr, "examsim-bench web: --bank-size %q: give question counts from 1 to 5000, comma-separated\n", *bankSizes)
			return 2
		}
		cfg.BankSizes = append(cfg.BankSizes, n)
	}
	if cfg.Duration < time.Second || cfg.Duration > 2*time.Minute || cfg.Connections < 1 || cfg.Connections > 1000 ||
		cfg.Threads < 1 || cfg.Threads > 16 || cfg.Starts < 1 || cfg.Starts > 20 {
		fmt.Fprintln(stderr, "examsim-bench web: --duration 1s..2m, --connections 1..1000, --threads 1..16, --starts 1..20")
		return 2
	}
	if _, err := exec.LookPath(cfg.Wrk); err != nil {
		fmt.Fprintf(stderr, "examsim-bench web: %s not found; install it with apt-get install wrk\n", cfg.Wrk)
		return 1
	}
	if err := benchWeb(ctx, cfg, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "examsim-bench web: %v\n", err)
		return 1
	}
	return 0
}

func benchWeb(ctx context.Context, cfg benchWebConfig, stdout, stderr io.Writer) error {
	exe, err := filepath.Abs(cfg.Examsim)
	if err != nil {
		return err
	}
	if _, err := os.Stat(exe); err != nil {
		return fmt.Errorf("%w: build it with make build, or point --examsim at it", err)
	}
	tmp, err := os.MkdirTemp("", "examsim-bench-web-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	host, _ := os.Hostname()
	fmt.Fprintf(stdout, "# examsim-bench web, %s UTC, %s, %d cores, load average at start %s\n\n",
		time.Now().UTC().Format("2006-01-02 15:04"), host, runtime.NumCPU(), loadAverage())
	if err := benchStartups(ctx, cfg, exe, tmp, stdout, stderr); err != nil {
		return err
	}
	return benchPages(ctx, cfg, exe, tmp, stdout, stderr)
}

// benchBank is a question bank a server is started with; dir "" is the
// embedded one.
type benchBank struct{ name, dir string }

// writeBenchBanks writes a replicated bank under tmp for each of sizes,
// after the embedded one.
func writeBenchBanks(tmp string, sizes []int) ([]benchBank, error) {
	banks := []benchBank{{"embedded bank", ""}}
	for _, n := range sizes {
		src, _ := questions.Embedded()
		big, err := banktest.Replicate(src, n)
		if err != nil {
			return nil, err
		}
		dir := filepath.Join(tmp, fmt.Sprintf("bank-%d", n))
		if err := banktest.WriteDir(dir, big); err != nil {
			return nil, err
		}
		banks = append(banks, benchBank{fmt.Sprintf("%d questions (%d files)", n, len(big)), dir})
	}
	return banks, nil
}

// benchStartups reports startup to ready and idle RSS: the embedded bank,
// then the big ones.
func benchStartups(ctx context.Context, cfg benchWebConfig, exe, tmp string, stdout, stderr io.Writer) error {
	banks, err := writeBenchBanks(tmp, cfg.BankSizes)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "| bank | starts | startup to ready ms (median) | min | max | idle RSS MB (median) |")
	fmt.Fprintln(stdout, "| --- | --- | --- | --- | --- | --- |")
	for _, b := range banks {
		var ready []time.Duration
		var rss []float64
		for i := range cfg.Starts {
			srv, err := startBenchServer(ctx, exe, filepath.Join(tmp, fmt.Sprintf("start-%d.db", i)), b.dir, stderr)
			if err != nil {
				return err
			}
			ready = append(ready, srv.ready)
			time.Sleep(cfg.Idle) // idle: the rubrics checked, start-up garbage collected
			rss = append(rss, srv.rssMB("VmRSS"))
			srv.stop()
		}
		slices.Sort(ready)
		slices.Sort(rss)
		fmt.Fprintf(stdout, "| %s | %d | %.0f | %.0f | %.0f | %.1f |\n", b.name, cfg.Starts,
			ms(ready[len(ready)/2]), ms(ready[0]), ms(ready[len(ready)-1]), rss[len(rss)/2])
	}
	return nil
}

// benchPages is the load run, on the embedded bank, the ceiling first and
// last; it reports each page against the ceiling.
func benchPages(ctx context.Context, cfg benchWebConfig, exe, tmp string, stdout, stderr io.Writer) error {
	srv, err := startBenchServer(ctx, exe, filepath.Join(tmp, "load.db"), "", stderr)
	if err != nil {
		return err
	}
	defer srv.stop()
	src, name := questions.Embedded()
	bank, _ := questions.Load(src, name)
	if bank == nil || len(bank.Questions) == 0 {
		return errors.New("the embedded bank has no questions")
	}
	var header []string
	if cfg.Cookies {
		if header, err = visitorCookies(srv.base); err != nil {
			return err
		}
	}
	pages := []string{"/", "/practice/" + bank.Questions[0].ID, "/healthz"}
	results, ceilings, err := runPagesBetweenCeilings(ctx, cfg, srv.base, pages, header)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nwrk -t%d -c%d -d%s --latency, cookies: %v; each page between two /_ceiling runs, its ratio to their mean\n\n",
		cfg.Threads, cfg.Connections, cfg.Duration, cfg.Cookies)
	fmt.Fprintln(stdout, "| URL | req/s | ceiling req/s (before, after) | ratio to ceiling | p50 ms | p99 ms | ceiling p99 ms | errors |")
	fmt.Fprintln(stdout, "| --- | --- | --- | --- | --- | --- | --- | --- |")
	for i, u := range pages {
		r, before, after := results[i], ceilings[i], ceilings[i+1]
		fmt.Fprintf(stdout, "| %s | %.0f | %.0f, %.0f | %.2f | %.2f | %.2f | %.2f, %.2f | %d |\n", u, r.rps, before.rps, after.rps,
			r.rps/((before.rps+after.rps)/2), r.p50, r.p99, before.p99, after.p99, r.errors+before.errors+after.errors)
	}
	fmt.Fprintf(stdout, "\nserver RSS after the load run: %.1f MB (peak %.1f MB); load average at end %s\n",
		srv.rssMB("VmRSS"), srv.rssMB("VmHWM"), loadAverage())
	return nil
}

// runPagesBetweenCeilings runs wrk on each page, with /_ceiling runs
// before the first and after each; ceilings has one more entry than pages.
func runPagesBetweenCeilings(ctx context.Context, cfg benchWebConfig, base string, pages, header []string) (results, ceilings []wrkResult, err error) {
	// A short unreported run first, so no page pays for a cold server. Then
	// each page runs between two ceiling runs and is compared with their
	// mean, so a machine that gets busier or quieter during the run moves
	// both sides of each ratio alike.
	warm := cfg
	warm.Duration = 2 * time.Second
	if _, err := runWrk(ctx, warm, base+"/_ceiling", header); err != nil {
		return nil, nil, err
	}
	ceilings = make([]wrkResult, len(pages)+1)
	results = make([]wrkResult, len(pages))
	if ceilings[0], err = runWrk(ctx, cfg, base+"/_ceiling", header); err != nil {
		return nil, nil, err
	}
	for i, u := range pages {
		if results[i], err = runWrk(ctx, cfg, base+u, header); err != nil {
			return nil, nil, err
		}
		if ceilings[i+1], err = runWrk(ctx, cfg, base+"/_ceiling", header); err != nil {
			return nil, nil, err
		}
	}
	return results, ceilings, nil
}

// benchServer is an `examsim serve --bench-ceiling` child process.
type benchServer struct {
	cmd   *exec.Cmd
	base  string
	ready time.Duration // from exec to the first 200 from /healthz
}

func startBenchServer(ctx context.Context, exe, db, bankDir string, stderr io.Writer) (*benchServer, error) {
	addr, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	args := []string{"serve", "--addr", addr, "--db", db, "--bench-ceiling"}
	if bankDir != "" {
		args = append(args, "--questions", bankDir)
	}
	var logs bytes.Buffer
	// #nosec G204 -- runs this same binary with arguments built here.
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Stdout, cmd.Stderr = io.Discard, &logs
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &benchServer{cmd: cmd, base: "http://" + addr}
	client := &http.Client{Timeout: time.Second}
	for deadline := start.Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		resp, err := client.Get(s.base + "/healthz")
		if err == nil {
			_ = resp.Body.Close() // only the status matters
			if resp.StatusCode == http.StatusOK {
				s.ready = time.Since(start)
				return s, nil
			}
		}
	}
	s.stop()
	fmt.Fprint(stderr, logs.String())
	return nil, fmt.Errorf("the server on %s was not ready within 30 s (its log is above)", addr)
}

// rssMB reads a memory figure (VmRSS, VmHWM) of the server from /proc.
func (s *benchServer) rssMB(field string) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	m := regexp.MustCompile(`(?m)^` + field + `:\s+(\d+) kB`).FindSubmatch(b)
	if m == nil {
		return -1
	}
	kb, _ := strconv.ParseFloat(string(m[1]), 64)
	return kb / 1024
}

// stop ends the server the way an operator would, with SIGTERM, and waits
// for it; a server that hangs is killed after 20 s.
func (s *benchServer) stop() {
	if s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}

// visitorCookies returns a Cookie header line with what the home page sets
// for a returning visitor: the language and the CSRF token.
func visitorCookies(base string) ([]string, error) {
	resp, err := http.Get(base + "/?lang=en")
	if err != nil {
		return nil, err
	}
	_ = resp.Body.Close() // only the cookies matter
	var parts []string
	for _, c := range resp.Cookies() {
		parts = append(parts, c.Name+"="+c.Value)
	}
	return []string{"-H", "Cookie: " + strings.Join(parts, "; ")}, nil
}

// wrkResult is what one wrk run reports.
type wrkResult struct {
	rps      float64
	p50, p99 float64 // ms
	errors   int     // socket errors and non-2xx/3xx answers
}

func runWrk(ctx context.Context, cfg benchWebConfig, url string, header []string) (wrkResult, error) {
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		return wrkResult{}, fmt.Errorf("refusing to load %s: only loopback", url)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Duration+time.Minute)
	defer cancel()
	args := append([]string{"-t" + strconv.Itoa(cfg.Threads), "-c" + strconv.Itoa(cfg.Connections),
		"-d" + strconv.Itoa(int(cfg.Duration.Seconds())) + "s", "--latency"}, header...)
	// #nosec G204 -- wrk from the --wrk flag of the person running the benchmark, on a loopback URL.
	out, err := exec.CommandContext(ctx, cfg.Wrk, append(args, url)...).CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk %s: %v\n%s", url, err, out)
	}
	return parseWrk(out)
}

var (
	wrkRPS     = regexp.MustCompile(`(?m)^Requests/sec:\s+([0-9.]+)`)
	wrkLatency = regexp.MustCompile(`(?m)^\s+(50|99)%\s+([0-9.]+)(us|ms|s)\s*$`)
	wrkErrors  = regexp.MustCompile(`(?m)^\s*(?:Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)|Non-2xx or 3xx responses: (\d+))`)
)

// parseWrk reads wrk --latency output.
func parseWrk(out []byte) (wrkResult, error) {
	var r wrkResult
	m := wrkRPS.FindSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("no Requests/sec in wrk's output:\n%s", out)
	}
	r.rps, _ = strconv.ParseFloat(string(m[1]), 64)
	for _, m := range wrkLatency.FindAllSubmatch(out, -1) {
		v, _ := strconv.ParseFloat(string(m[2]), 64)
		switch string(m[3]) {
		case "us":
			v /= 1000
		case "s":
			v *= 1000
		}
		if string(m[1]) == "50" {
			r.p50 = v
		} else {
			r.p99 = v
		}
	}
	if r.p99 == 0 {
		return r, fmt.Errorf("no latency distribution in wrk's output:\n%s", out)
	}
	for _, m := range wrkErrors.FindAllSubmatch(out, -1) {
		for _, g := range m[1:] {
			n, _ := strconv.Atoi(string(g))
			r.errors += n
		}
	}
	return r, nil
}

func freeLoopbackAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// loadAverage is the first three fields of /proc/loadavg.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
