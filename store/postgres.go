package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/examsim/examsim"
)

// The PostgreSQL side of the dialect seam. The services write one SQL text
// for both databases, with SQLite's "?" placeholders and integer booleans;
// the driver below turns "?" into PostgreSQL's $1, $2, ... and a Go bool
// into 0 or 1 (the columns are integers on both), so the queries stay one.
// What differs beyond that is in dialect (dialect.go) and in the numbered
// migrations of each dialect.

// pgDriverName is the database/sql driver examsim opens PostgreSQL with:
// pgx's, with the placeholder rewrite.
const pgDriverName = "examsim-pgx"

func init() { sql.Register(pgDriverName, pgDriver{}) }

// IsPostgresURL reports whether a --db value names a PostgreSQL database
// rather than a SQLite file.
func IsPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

type pgDriver struct{}

func (pgDriver) Open(dsn string) (driver.Conn, error) {
	c, err := stdlib.GetDefaultDriver().Open(dsn)
	if err != nil {
		return nil, err
	}
	pc, ok := c.(*stdlib.Conn)
	if !ok {
		_ = c.Close()
		return nil, fmt.Errorf("store: the pgx driver returned a %T", c)
	}
	return &pgConn{Conn: pc}, nil
}

// pgConn is a pgx connection that takes examsim's one query text.
type pgConn struct{ *stdlib.Conn }

func (c *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, rebind(query, len(args)), intBools(args))
}

func (c *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.Conn.QueryContext(ctx, rebind(query, len(args)), intBools(args))
}

func (c *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	s, err := c.Conn.PrepareContext(ctx, rebind(query, strings.Count(query, "?")))
	if err != nil {
		return nil, err
	}
	return pgStmt{s.(*stdlib.Stmt)}, nil
}

func (c *pgConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

type pgStmt struct{ *stdlib.Stmt }

func (s pgStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.Stmt.ExecContext(ctx, intBools(args))
}

func (s pgStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.Stmt.QueryContext(ctx, intBools(args))
}

// rebind numbers the "?" placeholders of a query as $1, $2, ..., leaving
// alone those in quoted strings, quoted names and comments. A query without
// arguments (a migration, say) is sent as written.
func rebind(query string, args int) string {
	if args == 0 || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 2*args)
	n := 0
	for i := 0; i < len(query); i++ {
		ch := query[i]
		switch {
		case ch == '\'' || ch == '"':
			end := strings.IndexByte(query[i+1:], ch)
			if end < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+end+2])
			i += end + 1
		case ch == '-' && strings.HasPrefix(query[i:], "--"):
			end := strings.IndexByte(query[i:], '\n')
			if end < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+end+1])
			i += end
		case ch == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// intBools passes a Go bool as the 0 or 1 the integer columns hold.
func intBools(args []driver.NamedValue) []driver.NamedValue {
	for i, a := range args {
		if v, ok := a.Value.(bool); ok {
			if v {
				args[i].Value = int64(1)
			} else {
				args[i].Value = int64(0)
			}
		}
	}
	return args
}

// openPostgres connects to the PostgreSQL database at url and migrates it.
// Its errors say what to fix: the URL, the credentials, the server.
func openPostgres(ctx context.Context, url string) (*DB, error) {
	if _, err := pgx.ParseConfig(url); err != nil {
		return nil, fmt.Errorf("store: %s is not a valid PostgreSQL URL (%v); write it as postgres://user:password@host:5432/database", redactURL(url), err)
	}
	sqlDB, err := sql.Open(pgDriverName, url)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", redactURL(url), err)
	}
	// PostgreSQL serves a bounded number of connections to all instances.
	sqlDB.SetMaxOpenConns(pgMaxConns)
	sqlDB.SetMaxIdleConns(pgMaxConns)
	db := newDB(sqlDB, postgres)
	if err := sqlDB.PingContext(ctx); err != nil {
		_ = sqlDB.Close() // the connection's error is the one to report
		return nil, fmt.Errorf("store: %s: %w", redactURL(url), connectError(err))
	}
	if err := db.migrate(ctx); err != nil {
		_ = sqlDB.Close() // the migration's error is the one to report
		return nil, err
	}
	return db, nil
}

// pgMaxConns bounds each instance's pool: PostgreSQL's default
// max_connections (100) then serves three instances with room to spare.
const pgMaxConns = 25

// redactURL hides a password in a URL shown in an error or a log.
func redactURL(s string) string {
	if cfg, err := pgconn.ParseConfig(s); err == nil && cfg.Password != "" {
		return strings.Replace(s, ":"+cfg.Password+"@", ":xxxxx@", 1)
	}
	return s
}

// connectError says what to do about a failed connection.
func connectError(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01", "28000":
			return fmt.Errorf("PostgreSQL refused the user name or password (%s); check the user and password in the URL, and pg_hba.conf on the server", pe.Message)
		case "3D000":
			return fmt.Errorf("%s; create it first (createdb NAME, or CREATE DATABASE NAME)", pe.Message)
		case "57P03":
			return fmt.Errorf("PostgreSQL is starting up or shutting down (%s); retry in a few seconds", pe.Message)
		}
		return fmt.Errorf("PostgreSQL refused the connection: %s (%s)", pe.Message, pe.Code)
	}
	return fmt.Errorf("cannot reach PostgreSQL (%v); check that the server is running and that the host and port in the URL are right, then retry", err)
}

// pgError classifies a PostgreSQL error for dbError and its helpers.
func pgErrorKind(err error) (errKind, bool) {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		if pgconn.SafeToRetry(err) || pgconn.Timeout(err) || isConnError(err) {
			return kindBusy, true
		}
		return 0, false
	}
	switch {
	case pe.Code == "23505":
		return kindUnique, true
	case pe.Code == "23503":
		return kindForeignKey, true
	case strings.HasPrefix(pe.Code, "23"):
		return kindConstraint, true
	case pe.Code == "40001", pe.Code == "40P01", pe.Code == "55P03", pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03",
		pe.Code == "53300", strings.HasPrefix(pe.Code, "08"):
		return kindBusy, true
	case pe.Code == "53100":
		return kindFull, true
	case pe.Code == "25006":
		return kindReadOnly, true
	case pe.Code == "58030":
		return kindIO, true
	}
	return 0, false
}

// isConnError reports a connection that failed or broke: the server is down
// or restarting, and a retry may succeed once it is back.
func isConnError(err error) bool {
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

func isPostgresError(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe)
}

// pgStorageError is storageError for PostgreSQL: the write was rolled back
// whole, and the same request succeeds once the operator has fixed the
// server.
func pgStorageError(kind errKind, err error) error {
	switch kind {
	case kindFull:
		return &examsim.Error{Code: examsim.EUNAVAILABLE, MessageID: "error.storage_full",
			Detail: err.Error() + "; free space on the PostgreSQL server's disk: writes resume by themselves"}
	case kindReadOnly:
		return &examsim.Error{Code: examsim.EUNAVAILABLE, MessageID: "error.storage_readonly",
			Detail: err.Error() + "; the URL reaches a read-only server (a standby?): point --db at the primary"}
	}
	return &examsim.Error{Code: examsim.EUNAVAILABLE, MessageID: "error.unavailable",
		Detail: err.Error() + "; the PostgreSQL server failed a read or write: check its log"}
}

// DisplayName is how a --db value is shown in messages and logs: a path as
// it is, a URL without its password.
func DisplayName(path string) string {
	if IsPostgresURL(path) {
		return redactURL(path)
	}
	return path
}
