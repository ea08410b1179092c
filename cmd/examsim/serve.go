package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/questions/exchange"
	"github.com/examsim/examsim/sandbox"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web"
)

// envOr returns the environment variable name, or def when it is unset.
func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

// serveOptions are serve's flags, read and checked.
type serveOptions struct {
	addr, dbPath, qdir string
	publicURL          string
	mcpAnyHost         bool
	origins            []string
	benchCeiling       bool
	tlsConfig          *tls.Config
	proxies            proxyList
	advertise          string
}

// parseServeFlags reads serve's flags and environment; a non-zero code means
// the command line was wrong and has been explained on stderr.
func parseServeFlags(args []string, stderr io.Writer) (*serveOptions, int) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr("EXAMSIM_ADDR", "127.0.0.1:8080"), "address to listen on (EXAMSIM_ADDR)")
	dbPath := fs.String("db", envOr("EXAMSIM_DB", "./examsim.db"), "SQLite database file, created and migrated on first start, or a postgres:// URL (EXAMSIM_DB)")
	qdir := fs.String("questions", envOr("EXAMSIM_QUESTIONS", ""), "question bank folder (EXAMSIM_QUESTIONS; default: the bank built into the binary)")
	mcpAnyHost := fs.Bool("mcp-allow-any-host", envOr("EXAMSIM_MCP_ALLOW_ANY_HOST", "") == "1",
		"let /mcp answer requests with a non-local Host header that reach a loopback address, e.g. behind a reverse proxy that checks Host itself (EXAMSIM_MCP_ALLOW_ANY_HOST=1)")
	mcpOrigins := fs.String("mcp-allowed-origins", envOr("EXAMSIM_MCP_ALLOWED_ORIGINS", ""),
		"comma-separated browser origins (https://host[:port]) allowed to call /mcp besides the server's own; other Origins get 403, requests without Origin are always served (EXAMSIM_MCP_ALLOWED_ORIGINS)")
	benchCeiling := fs.Bool("bench-ceiling", envOr("EXAMSIM_BENCH_CEILING", "") == "1",
		"mount GET /_ceiling, fixed bytes through the same server, for load runs to compare pages with (EXAMSIM_BENCH_CEILING=1; see BENCHMARKS.md)")
	tlsCert := fs.String("tls-cert", envOr("EXAMSIM_TLS_CERT", ""),
		"serve HTTPS with this PEM certificate (and --tls-key): every response then carries HSTS and cookies are Secure (EXAMSIM_TLS_CERT)")
	tlsKey := fs.String("tls-key", envOr("EXAMSIM_TLS_KEY", ""), "the PEM private key of --tls-cert (EXAMSIM_TLS_KEY)")
	publicURL := fs.String("public-url", envOr("EXAMSIM_PUBLIC_URL", ""),
		"the address students' phones open, such as http://192.168.1.20:8080: the classroom join URL and QR code use it (EXAMSIM_PUBLIC_URL; default: the address the presenter screen is opened at)")
	advertise := fs.String("advertise-url", envOr("EXAMSIM_ADVERTISE_URL", ""),
		"on PostgreSQL, the URL the other instances reach this one at, to forward the requests of the live rooms it owns (EXAMSIM_ADVERTISE_URL; default: the listening address, when it is not 0.0.0.0 or [::])")
	o := &serveOptions{}
	fs.Var(&o.proxies, "trusted-proxy",
		"a reverse proxy (CIDR block or address; repeat for more) whose X-Forwarded-For and X-Forwarded-Proto are believed, for rate limits, HSTS and Secure cookies; from anyone else they are ignored (EXAMSIM_TRUSTED_PROXY, comma-separated)")
	if err := o.proxies.Set(envOr("EXAMSIM_TRUSTED_PROXY", "")); err != nil {
		fmt.Fprintf(stderr, "examsim serve: EXAMSIM_TRUSTED_PROXY: %v\n", err)
		return nil, 2
	}
	if err := fs.Parse(args); err != nil {
		return nil, 2
	}
	var err error
	if o.origins, err = sandbox.ParseOrigins(*mcpOrigins); err != nil {
		fmt.Fprintf(stderr, "examsim serve: --mcp-allowed-origins: %v\n", err)
		return nil, 2
	}
	if o.tlsConfig, err = serverTLS(*tlsCert, *tlsKey); err != nil {
		fmt.Fprintf(stderr, "examsim serve: %v\n", err)
		return nil, 2
	}
	if o.publicURL, err = checkPublicURL(*publicURL); err != nil {
		fmt.Fprintf(stderr, "examsim serve: --public-url: %v\n", err)
		return nil, 2
	}
	if *advertise != "" {
		if u, err := url.Parse(*advertise); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			fmt.Fprintf(stderr, "examsim serve: --advertise-url %q: want http://host:port or https://host:port, the address the other instances reach this one at\n", *advertise)
			return nil, 2
		}
	}
	o.addr, o.dbPath, o.qdir, o.mcpAnyHost, o.benchCeiling, o.advertise = *addr, *dbPath, *qdir, *mcpAnyHost, *benchCeiling, *advertise
	return o, 0
}

// openServingDB takes the one-server lock on a SQLite database and opens
// it. The caller closes db, then calls release: the lock outlives the
// database. PostgreSQL takes no lock: many instances may serve it.
func openServingDB(ctx context.Context, path string, stderr io.Writer) (db *store.DB, release func() error, code int) {
	if store.IsPostgresURL(path) {
		return openServingPostgres(ctx, path, stderr)
	}
	release, err := store.LockForServing(path)
	var inUse *store.InUseError
	if errors.As(err, &inUse) {
		fmt.Fprintf(stderr, "examsim serve: %v.\nLive rooms are kept in one server's memory, so two servers on one database would split them. Stop the other server first, or pass --db with another file.\n", err)
		return nil, nil, 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "examsim serve: cannot lock the database %s: %v\n%s\n", path, err, store.OpenAdvice(path, err))
		return nil, nil, 1
	}
	db, err = store.Open(ctx, path)
	if err != nil {
		_ = release() // the open error is the one to report
		fmt.Fprintf(stderr, "examsim serve: cannot open the database %s: %v\n%s\n", path, err, store.OpenAdvice(path, err))
		return nil, nil, 1
	}
	return db, release, 0
}

// openServingPostgres opens and migrates a PostgreSQL database. Many
// instances may serve one: each live room is owned by one of them through a
// lease (classroom.Config.Leases), so there is no lock to take.
func openServingPostgres(ctx context.Context, url string, stderr io.Writer) (*store.DB, func() error, int) {
	db, err := store.Open(ctx, url)
	if err != nil {
		fmt.Fprintf(stderr, "examsim serve: cannot open the database %s: %v\n", store.DisplayName(url), err)
		return nil, nil, 1
	}
	return db, func() error { return nil }, 0
}

// advertiseURL is the address the other instances forward this one's rooms
// to: the flag's, or the listening address when it is a reachable one.
func advertiseURL(o *serveOptions, ln net.Listener, scheme string) (string, error) {
	if o.advertise != "" {
		return strings.TrimRight(o.advertise, "/"), nil
	}
	ap, err := netip.ParseAddrPort(ln.Addr().String())
	if err != nil || ap.Addr().IsUnspecified() {
		return "", fmt.Errorf("it listens on %s, which the other instances cannot reach it at: pass --advertise-url (or EXAMSIM_ADVERTISE_URL) with the http://host:port they can", ln.Addr())
	}
	return scheme + "://" + ap.String(), nil
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, code := parseServeFlags(args, stderr)
	if code != 0 {
		return code
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	bank, problems := loadBankForServing(o.qdir)
	if len(problems) > 0 {
		reportBankProblems(stderr, problems)
		return 1
	}
	catalog, err := i18n.Load()
	if err != nil {
		fmt.Fprintf(stderr, "examsim serve: %v\n", err)
		return 1
	}
	db, release, code := openServingDB(ctx, o.dbPath, stderr)
	if code != 0 {
		return code
	}
	defer release() // after the database is closed: deferred first, run last
	defer db.Close()
	key, err := db.Secret(ctx, "cookie")
	if err != nil { // only a first start writes it: read-only from the start, it cannot be made
		fmt.Fprintf(stderr, "examsim serve: %v\n%s\n", err, store.OpenAdvice(o.dbPath, err))
		return 1
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		fmt.Fprintf(stderr, "examsim serve: cannot listen on %s: %v\nIs another server using it? Pass --addr with a free port.\n", o.addr, err)
		return 1
	}
	defer ln.Close() // already closed by a shutdown; this covers the early returns
	scheme := "http"
	if o.tlsConfig != nil {
		scheme = "https"
	}

	services := store.NewServices(db)
	// Quizzes, results and grading find teachers' questions beside the bank's.
	bank = bank.WithAuthored(exchange.NewResolver(bankFiles(o.qdir), services.Authored).Lookup)
	hubCfg := classroom.Config{Store: services.Classes, Bank: bank, Logger: logger}
	if leases := store.NewRoomLeaseService(db); leases != nil {
		// Many instances may serve this database: each live room is owned
		// by one, through a lease, and the others forward to it.
		if hubCfg.Address, err = advertiseURL(o, ln, scheme); err != nil {
			fmt.Fprintf(stderr, "examsim serve: %v\n", err)
			return 2
		}
		hubCfg.Leases, hubCfg.Instance = leases, newInstanceID()
	}
	hub := classroom.NewHub(hubCfg)
	defer hub.Close() // on every way out, after the server stops and before the database closes
	cfg := web.Config{
		Services: services, Bank: bank, BankFiles: bankFiles(o.qdir), Catalog: catalog, Logger: logger, CookieKey: key,
		Sandbox: sandbox.New(), MCPAllowAnyHost: o.mcpAnyHost, MCPAllowedOrigins: o.origins, Classroom: hub,
		MetricsToken: os.Getenv("EXAMSIM_METRICS_TOKEN"), BenchCeiling: o.benchCeiling,
		SecureCookies: o.tlsConfig != nil, TrustedProxies: o.proxies,
		PublicURL: o.publicURL, ListenAddr: o.addr, LANAddrs: lanAddrs(),
	}
	handler := web.New(cfg)
	// Headers must arrive within 10 s and an idle keep-alive connection is
	// closed after 2 minutes; a body must arrive within web.DefaultBodyTimeout
	// (the handler times it). No ReadTimeout or WriteTimeout: either would
	// end every event stream and long MCP call at that age.
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		MaxHeaderBytes: 64 << 10, TLSConfig: o.tlsConfig}
	// Event streams never finish by themselves: end them, with a retry hint,
	// when Shutdown begins, or they would hold it up.
	srv.RegisterOnShutdown(handler.CloseStreams)
	if hubCfg.Leases != nil {
		fmt.Fprintf(stdout, "examsim: instance %s, reached by the other instances at %s\n", hubCfg.Instance, hubCfg.Address)
	}
	fmt.Fprintf(stdout, "examsim: serving %s on %s://%s (database %s)\n", bankSummary(bank), scheme, ln.Addr(), store.DisplayName(o.dbPath))
	return serveUntilDone(ctx, srv, ln, bank, hub, db, stdout, stderr)
}

// reportBankProblems is serve's refusal of a bank with problems.
func reportBankProblems(stderr io.Writer, problems questions.Problems) {
	fmt.Fprintln(stderr, problems.Error())
	fmt.Fprintf(stderr, "examsim serve: the question bank has %d problems (listed above); fix them, or run examsim questions check\n", len(problems))
}

// serveUntilDone serves until ctx ends, or until the bank's rubrics, checked
// beside serving, show a problem (exit 1), then shuts down in order: stop
// accepting, let in-flight requests finish (an answer waiting for its group
// commit is one), commit what the classroom writer still holds, and only then
// close the database.
func serveUntilDone(ctx context.Context, srv *http.Server, ln net.Listener, bank *questions.Bank, hub *classroom.Hub, db *store.DB, stdout, stderr io.Writer) int {
	// The bank's rubrics were left for first use to listen sooner: check
	// them all now, beside serving, and stop on a problem, as serve refuses
	// such a bank at start. Loading leaves several times the bank's size in
	// garbage; return it to the system then, rather than over the next
	// minutes.
	completed := make(chan questions.Problems, 1)
	go func() {
		problems := bank.Complete()
		debug.FreeOSMemory()
		completed <- problems
	}()

	// From here a signal shuts down in order (below); before, nothing was
	// served, and a signal ends the process at once, wherever it waits.
	windsDown.Store(true)
	errc := make(chan error, 1)
	go func() {
		if srv.TLSConfig != nil {
			errc <- srv.ServeTLS(ln, "", "") // the certificate is in TLSConfig
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	for {
		select {
		case err := <-errc:
			fmt.Fprintf(stderr, "examsim serve: %v\n", err)
			return 1
		case problems := <-completed:
			if len(problems) == 0 {
				completed = nil // checked: serve on
				continue
			}
			reportBankProblems(stderr, problems)
			shutDown(srv, hub, db, stdout, stderr)
			return 1
		case <-ctx.Done():
			return shutDown(srv, hub, db, stdout, stderr)
		}
	}
}

// shutDown stops serving in order and returns the exit code.
func shutDown(srv *http.Server, hub *classroom.Hub, db *store.DB, stdout, stderr io.Writer) int {
	fmt.Fprintln(stdout, "examsim: stopping: no new connections; finishing requests in flight")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "examsim serve: shutdown: %v\n", err)
		return 1
	}
	hub.Close()
	// The answers are committed: hand the rooms to the other instances now
	// rather than when the leases run out (PostgreSQL only).
	releaseCtx, cancelRelease := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancelRelease()
	if err := hub.ReleaseLeases(releaseCtx); err != nil {
		fmt.Fprintf(stderr, "examsim serve: handing the live rooms over: %v (the other instances take them within %s)\n", err, classroom.DefaultLeaseTTL)
	}
	if err := db.Close(); err != nil {
		fmt.Fprintf(stderr, "examsim serve: closing the database: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, "examsim: stopped")
	return 0
}

// newInstanceID names this process in the room leases; a restarted
// instance is a new one, and takes its old rooms over as any other would.
func newInstanceID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	host, _ := os.Hostname()
	return host + "-" + hex.EncodeToString(b)
}
