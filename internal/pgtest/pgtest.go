// Package pgtest runs a real, throwaway PostgreSQL for tests: one cluster per
// test binary, made with initdb in a temporary folder and started on a free
// loopback port, and a fresh database for each test. Nothing is downloaded
// and nothing runs in a container: it uses the PostgreSQL installed on the
// machine (Debian's postgresql package; .ci/run installs it).
//
// A test binary calls Main from its TestMain; each test calls URL for a new
// database. When PostgreSQL is missing the tests skip with one message, and
// fail instead under CI=true, where the PostgreSQL run must not be lost.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// Cluster is a running PostgreSQL server owned by this process.
type Cluster struct {
	dir   string // the folder holding the data directory, the socket and the log
	bin   string
	cred  *syscall.Credential
	port  int
	cmd   *exec.Cmd
	done  chan error // the postmaster's exit
	mu    sync.Mutex
	admin *sql.DB
	next  atomic.Int64
}

var (
	binDir  string
	missing string // why PostgreSQL is not available, "" when it is
	inMain  bool   // Main runs this binary's tests

	// The shared cluster, started by the first test that needs it, so a
	// test binary that has none pays nothing.
	startShared sync.Once
	shared      *Cluster
	startError  error
)

// Main runs the tests and stops the shared cluster if one of them started
// it. Use it as
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
func Main(m *testing.M) {
	inMain = true
	bin, why := findBin()
	if why != "" {
		if os.Getenv("CI") == "true" {
			fmt.Fprintf(os.Stderr, "pgtest: %s; in CI the PostgreSQL tests must run: install postgresql (.ci/run does)\n", why)
			os.Exit(1)
		}
		missing = why
		fmt.Fprintf(os.Stderr, "pgtest: skipping the PostgreSQL tests: %s (install postgresql to run them)\n", why)
		os.Exit(m.Run())
	}
	binDir = bin
	code := m.Run()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// URL makes a fresh, empty database on the shared cluster for this test,
// drops it when the test ends, and returns its postgres:// URL. It skips the
// test when PostgreSQL is not installed (outside CI).
func URL(tb testing.TB) string {
	tb.Helper()
	if missing != "" {
		tb.Skip("PostgreSQL is not installed")
	}
	if !inMain {
		tb.Fatal("pgtest: the test binary has no TestMain calling pgtest.Main")
	}
	startShared.Do(func() {
		shared, startError = Start(binDir)
	})
	if startError != nil {
		tb.Fatal(startError) // every PostgreSQL test fails with it; the others still run
	}
	url, err := shared.CreateDatabase(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	name := dbName(url)
	tb.Cleanup(func() {
		if err := shared.DropDatabase(context.Background(), name); err != nil {
			tb.Errorf("pgtest: %v", err)
		}
	})
	return url
}

// ForSuite is the database of a test that runs on SQLite unless
// EXAMSIM_TEST_POSTGRES says otherwise: "1" for a fresh database on this
// binary's own cluster, a superuser's postgres:// URL for one on that
// server. sqlitePath is returned when the variable is unset.
func ForSuite(tb testing.TB, sqlitePath string) string {
	tb.Helper()
	switch v := os.Getenv("EXAMSIM_TEST_POSTGRES"); v {
	case "":
		return sqlitePath
	case "1":
		return URL(tb)
	default:
		return DatabaseOn(tb, v)
	}
}

// findBin finds the folder of initdb and postgres: on PATH, or in Debian's
// versioned folders, newest first.
func findBin() (string, string) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		dir := filepath.Dir(p)
		if _, err := os.Stat(filepath.Join(dir, "postgres")); err == nil {
			return dir, ""
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, ""
		}
	}
	return "", "initdb is neither on PATH nor in /usr/lib/postgresql/*/bin"
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// Start makes a new cluster with the PostgreSQL in bin and starts it. As
// root, initdb and the server run as the postgres user (initdb refuses
// root), in a folder that user owns.
func Start(bin string) (*Cluster, error) {
	dir, err := os.MkdirTemp("", "examsim-pg-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	c := &Cluster{dir: dir, bin: bin, done: make(chan error, 1)}
	fail := func(err error) (*Cluster, error) {
		_ = os.RemoveAll(dir) // the start's error is the one to report
		return nil, err
	}
	asUser, cred, err := serverUser()
	if err != nil {
		return fail(err)
	}
	c.cred = cred
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fail(fmt.Errorf("pgtest: giving %s to the postgres user: %w", dir, err))
		}
	}
	data := filepath.Join(dir, "data")
	initdb := []string{filepath.Join(bin, "initdb"), "-D", data, "-U", "examsim", "--auth=trust",
		"-E", "UTF8", "--locale=C.UTF-8", "--no-sync", "--no-instructions"}
	if asUser != "" {
		initdb = append([]string{"runuser", "-u", asUser, "--"}, initdb...)
	}
	// #nosec G204 -- the binaries found above, with arguments made here
	if out, err := exec.Command(initdb[0], initdb[1:]...).CombinedOutput(); err != nil {
		return fail(fmt.Errorf("pgtest: initdb: %v: %s", err, strings.TrimSpace(string(out))))
	}
	for try := 0; ; try++ {
		c.port, err = freePort()
		if err != nil {
			return fail(err)
		}
		err = c.startServer(bin, data, cred)
		if err == nil {
			return c, nil
		}
		if try == 3 {
			return fail(err)
		}
	}
}

// serverUser is the user the cluster runs as: none (this user) unless this
// process is root, then postgres.
func serverUser() (string, *syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return "", nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return "", nil, fmt.Errorf("pgtest: running as root, and there is no postgres user to run PostgreSQL as: %w", err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	return "postgres", &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgtest: finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// startServer runs the postmaster as a child of this process and waits until
// it accepts connections. Durability is off: a test cluster is thrown away.
func (c *Cluster) startServer(bin, data string, cred *syscall.Credential) error {
	logPath := filepath.Join(c.dir, "server.log")
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644) // #nosec G302 G304 -- our own temporary log
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer log.Close()
	// #nosec G204 -- the binary found above, with arguments made here
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(c.port),
		"-k", c.dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=200", "-c", "shared_buffers=32MB")
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = sysProcAttr(cred)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("pgtest: starting postgres: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	admin, err := sql.Open("pgx", c.url("postgres"))
	if err != nil {
		_ = cmd.Process.Kill()
		return fmt.Errorf("pgtest: %w", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = admin.PingContext(ctx)
		cancel()
		if err == nil {
			break
		}
		select {
		case werr := <-done:
			_ = admin.Close()
			b, _ := os.ReadFile(logPath) // #nosec G304 -- our own temporary log
			return fmt.Errorf("pgtest: postgres exited at start (%v): %s", werr, strings.TrimSpace(string(b)))
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = admin.Close()
			return fmt.Errorf("pgtest: postgres did not accept connections within 30s: %w", err)
		}
	}
	c.cmd, c.done, c.admin = cmd, done, admin
	return nil
}

func (c *Cluster) url(db string) string {
	return fmt.Sprintf("postgres://examsim@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// Port is the loopback port the cluster listens on.
func (c *Cluster) Port() int { return c.port }

// CreateDatabase makes a new empty database and returns its URL.
func (c *Cluster) CreateDatabase(ctx context.Context) (string, error) {
	name := fmt.Sprintf("t%d_%d", os.Getpid(), c.next.Add(1))
	if _, err := c.admin.ExecContext(ctx, `CREATE DATABASE `+name); err != nil { // #nosec G202 -- a name made here
		return "", fmt.Errorf("pgtest: create database %s: %w", name, err)
	}
	return c.url(name), nil
}

// DropDatabase drops a database made by CreateDatabase, ending its sessions.
func (c *Cluster) DropDatabase(ctx context.Context, name string) error {
	if _, err := c.admin.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil { // #nosec G202 -- a name made here
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	return nil
}

func dbName(url string) string {
	name := url[strings.LastIndex(url, "/")+1:]
	if i := strings.IndexByte(name, '?'); i >= 0 {
		name = name[:i]
	}
	return name
}

// Stop shuts the server down (a fast shutdown, then an immediate one) and
// removes its folder.
func (c *Cluster) Stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil { // halted
		return os.RemoveAll(c.dir)
	}
	_ = c.admin.Close()
	_ = c.cmd.Process.Signal(syscall.SIGINT) // fast shutdown
	var err error
	select {
	case <-c.done:
	case <-time.After(20 * time.Second):
		_ = c.cmd.Process.Signal(syscall.SIGQUIT) // immediate shutdown
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			_ = c.cmd.Process.Kill()
			<-c.done
			err = errors.New("pgtest: postgres did not stop; killed it")
		}
	}
	c.cmd = nil
	return errors.Join(err, os.RemoveAll(c.dir))
}

// DatabaseOn makes a fresh database for this test on the server that
// adminURL (a superuser's postgres:// URL) reaches, drops it when the test
// ends, and returns its URL: for running a whole suite on PostgreSQL, as
// EXAMSIM_TEST_POSTGRES does for the web tests.
func DatabaseOn(tb testing.TB, adminURL string) string {
	tb.Helper()
	admin, err := sql.Open("pgx", adminURL)
	if err != nil {
		tb.Fatal(err)
	}
	name := fmt.Sprintf("t%d_%d", os.Getpid(), onNext.Add(1))
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+name); err != nil { // #nosec G202 -- a name made here
		_ = admin.Close()
		tb.Fatalf("pgtest: create database on %s: %v", adminURL, err)
	}
	tb.Cleanup(func() {
		defer admin.Close()
		if _, err := admin.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil { // #nosec G202 -- a name made here
			tb.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(adminURL)
	if err != nil {
		tb.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

var onNext atomic.Int64

// Private starts a cluster for this test alone, for tests that stop and
// restart PostgreSQL under a running examsim, and removes it at the end.
func Private(tb testing.TB) *Cluster {
	tb.Helper()
	if missing != "" {
		tb.Skip("PostgreSQL is not installed")
	}
	if !inMain {
		tb.Fatal("pgtest: the test binary has no TestMain calling pgtest.Main")
	}
	c, err := Start(binDir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := c.Stop(); err != nil {
			tb.Error(err)
		}
	})
	return c
}

// URL is the URL of a database on the cluster (no database is made).
func (c *Cluster) URL(db string) string { return c.url(db) }

// Halt stops the server as an operator's fast shutdown does, keeping its
// data for Resume.
func (c *Cluster) Halt() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		return errors.New("pgtest: the cluster is not running")
	}
	_ = c.admin.Close()
	_ = c.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-c.done:
	case <-time.After(30 * time.Second):
		return errors.New("pgtest: postgres did not stop in 30s")
	}
	c.cmd = nil
	return nil
}

// Resume starts a halted server again on the same port and data.
func (c *Cluster) Resume() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.startServer(c.bin, filepath.Join(c.dir, "data"), c.cred)
}
