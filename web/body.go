package web

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// DefaultBodyTimeout is how long a request body may take to arrive: 64 KiB,
// the most any route takes, in 30 s is 2 KiB/s, slower than any classroom
// network that works at all.
const DefaultBodyTimeout = 30 * time.Second

// maxBodyBytes is routes.go's BodyLimit ("64K"): bodies are read up to one
// byte past it, so that limit still answers 413 for a larger one.
const maxBodyBytes = 64 << 10

// ServeHTTP makes the server an http.Handler. A request's body is read
// first, within BodyTimeout, and handlers get it from memory: a client that
// trickles a body gets 408 instead of holding a connection, while the
// server keeps no read or write timeout that would end event streams.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody {
		s.echo.ServeHTTP(w, r)
		return
	}
	timeout := s.BodyTimeout
	if timeout <= 0 {
		timeout = DefaultBodyTimeout
	}
	rc := http.NewResponseController(w)
	if err := rc.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		s.echo.ServeHTTP(w, r) // no connection to time, e.g. a test's recorder
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if errors.Is(err, os.ErrDeadlineExceeded) {
		s.bodyTooSlow(w, r)
		return
	}
	if err != nil {
		return // the client went away mid-body: nobody to answer
	}
	if len(body) > maxBodyBytes {
		// Over the limit: BodyLimit answers 413, and the deadline stays, so
		// the rest cannot trickle in either.
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	} else {
		_ = rc.SetReadDeadline(time.Time{}) // the body is in: a stream may last
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	s.echo.ServeHTTP(w, r)
}

// bodyTooSlow answers 408 in the visitor's language, with the headers every
// response carries, and closes the connection, whose body never came.
func (s *Server) bodyTooSlow(w http.ResponseWriter, r *http.Request) {
	// The failed read cancelled the request's context; the answer still goes.
	r = r.WithContext(context.WithoutCancel(r.Context()))
	c := s.echo.NewContext(r, w)
	p := pageOf(c)
	p.Catalog, p.Bank, p.Lang = s.Catalog, s.Bank, preferredLang(r)
	w.Header().Set("Connection", "close")
	slow := s.securityHeaders(func(echo.Context) error {
		return examsim.E(examsim.ETIMEOUT, "error.request_timeout")
	})
	s.handleError(slow(c), c)
}

// formText is a free-text form field as it is stored: bytes that are not
// UTF-8 become U+FFFD, one each, as the JSON export writes them, so no page
// or CSV serves them back raw.
func formText(c echo.Context, name string) string {
	s := c.FormValue(name)
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:]) // utf8.RuneError, 1 for a bad byte
		b.WriteRune(r)
		i += size
	}
	return b.String()
}
