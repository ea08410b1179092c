package web

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim/classroom"
)

// Many instances on one PostgreSQL database (README, "When one machine is
// not enough"): each live room is kept by the one instance holding its
// lease, and a request for it that reaches another instance is forwarded
// there, answers, controls and event streams alike. The forwarded request
// carries the client's address and scheme, signed with the cookie key the
// instances share through the database, so the owner rate-limits the
// student and not the instance that forwarded, and sets Secure cookies.

// forwardHeader marks a forwarded request: "addr;scheme;unix;mac".
const forwardHeader = "X-Examsim-Forwarded"

// forwardMaxAge is how old a forwarded request's signature may be.
const forwardMaxAge = time.Minute

// maxJoinForm bounds the join form read to find its room.
const maxJoinForm = 16 << 10

// forwards holds one reverse proxy per owner address, all over one
// transport.
type forwards struct {
	mu        sync.Mutex
	proxies   map[string]*httputil.ReverseProxy
	transport *http.Transport
}

// forwardIdlePerOwner is how many idle connections to each owner are kept.
// The default transport keeps two, so a room's answer burst arriving at
// the wrong instance opened and closed a connection per answer: in the
// two-instance load run, p99 submit was about 2 s against about 0.1 s on
// the owner itself.
const forwardIdlePerOwner = 512

// forwardRooms sends a request for a room another instance owns to that
// instance; every other request goes on here. It runs before the
// middleware that reads the form (CSRF), so the body is forwarded whole.
func (s *Server) forwardRooms(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.Classroom == nil || !s.Classroom.Shared() {
			return next(c)
		}
		r := c.Request()
		id, ok := roomInPath(r.URL.Path)
		if !ok && r.Method == http.MethodPost && r.URL.Path == "/join" {
			id, ok = s.joinRoom(r)
		}
		if !ok {
			return next(c)
		}
		_, err := s.Classroom.Room(r.Context(), id)
		var elsewhere *classroom.NotOwnerError
		if !errors.As(err, &elsewhere) {
			return next(c) // ours, or an error the handler reports
		}
		if r.Header.Get(forwardHeader) != "" {
			// Forwarded here by an instance that thought this one owned
			// it: the lease moved meanwhile. Never forward twice.
			return elsewhere
		}
		return s.forwardTo(c, elsewhere.Address)
	}
}

// roomInPath is the run id of a /class/s/:id/... URL.
func roomInPath(path string) (int64, bool) {
	rest, ok := strings.CutPrefix(path, "/class/s/")
	if !ok {
		return 0, false
	}
	idText, _, _ := strings.Cut(rest, "/")
	id, err := strconv.ParseInt(idText, 10, 64)
	return id, err == nil && id > 0
}

// joinRoom is the room a join form's code names, reading the body and
// putting it back for whoever serves the request.
func (s *Server) joinRoom(r *http.Request) (int64, bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxJoinForm+1))
	if err != nil {
		return 0, false // the handler reports the broken body
	}
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	if len(body) > maxJoinForm {
		return 0, false
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return 0, false
	}
	code := strings.Join(strings.Fields(form.Get("code")), "")
	if !joinCode.MatchString(code) {
		return 0, false
	}
	run, err := s.Classes.FindRunByCode(r.Context(), code)
	if err != nil {
		return 0, false
	}
	return run.ID, true
}

// forwardTo proxies the request to the instance at address; event streams
// are flushed as they come.
func (s *Server) forwardTo(c echo.Context, address string) error {
	return s.forwardVia(c, s.proxyFor(address, roomUnreachable))
}

func (s *Server) forwardVia(c echo.Context, p *httputil.ReverseProxy) error {
	r := c.Request()
	r.Header.Set(forwardHeader, s.signForward(s.clientAddr(r), s.schemeOf(r), s.now()))
	s.metrics.Forwarded.Inc()
	p.ServeHTTP(c.Response(), r)
	return nil
}

// roomUnreachable answers for a room's owner that cannot be reached.
func roomUnreachable(w http.ResponseWriter) {
	// It died; its lease runs out within classroom.DefaultLeaseTTL and
	// the room moves: the client retries.
	w.Header().Set("Retry-After", "2")
	http.Error(w, "The instance running this room is unreachable; it is handed to another within seconds. Retry in a moment.", http.StatusServiceUnavailable)
}

// mcpSessionGone answers for an MCP session whose instance cannot be
// reached: the session died with it, and the client starts a new one.
func mcpSessionGone(w http.ResponseWriter) {
	http.Error(w, "Session not found: the examsim instance holding this MCP session is gone. Start a new session (initialize without Mcp-Session-Id).", http.StatusNotFound)
}

func (s *Server) proxyFor(address string, unreachable func(http.ResponseWriter)) *httputil.ReverseProxy {
	key := fmt.Sprintf("%p %s", unreachable, address)
	s.fwd.mu.Lock()
	defer s.fwd.mu.Unlock()
	if p := s.fwd.proxies[key]; p != nil {
		return p
	}
	target, err := url.Parse(address)
	if s.fwd.proxies == nil {
		s.fwd.proxies = map[string]*httputil.ReverseProxy{}
		s.fwd.transport = http.DefaultTransport.(*http.Transport).Clone()
		s.fwd.transport.MaxIdleConns = 4 * forwardIdlePerOwner
		s.fwd.transport.MaxIdleConnsPerHost = forwardIdlePerOwner
	}
	p := &httputil.ReverseProxy{
		Transport:     s.fwd.transport,
		FlushInterval: -1, // event streams pass each event on at once
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = pr.In.Host // the owner builds links for the host the browser used
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			s.Logger.Warn("forwarding a request", "path", r.URL.Path, "to", address, "err", err)
			unreachable(w)
		},
	}
	if err != nil { // a lease naming no URL: the request goes nowhere and ErrorHandler answers
		p.Rewrite = func(*httputil.ProxyRequest) {}
	}
	s.fwd.proxies[key] = p
	return p
}

// MCP sessions live in the memory of the instance that started them. With
// many instances, each session id starts with its instance's address and a
// MAC of it under the shared cookie key, so any instance can forward a
// request of the session to it, and nobody can make one forward elsewhere.

// mcpSessionPrefix is the start of this instance's MCP session ids.
func (s *Server) mcpSessionPrefix(address string) string {
	a := base64.RawURLEncoding.EncodeToString([]byte(address))
	return a + "." + s.forwardMAC("mcp\x00" + address)[:22] + "."
}

// mcpSessionOwner is the address a session id names, if its MAC holds.
func (s *Server) mcpSessionOwner(id string) (string, bool) {
	a, rest, ok := strings.Cut(id, ".")
	if !ok {
		return "", false
	}
	mac, _, ok := strings.Cut(rest, ".")
	addr, err := base64.RawURLEncoding.DecodeString(a)
	if !ok || err != nil || !hmac.Equal([]byte(mac), []byte(s.forwardMAC("mcp\x00" + string(addr))[:22])) {
		return "", false
	}
	return string(addr), true
}

// forwardMCP sends a request of an MCP session another instance holds to
// it; false means this instance serves it.
func (s *Server) forwardMCP(c echo.Context) bool {
	if s.Classroom == nil || !s.Classroom.Shared() || len(s.CookieKey) == 0 {
		return false
	}
	r := c.Request()
	owner, ok := s.mcpSessionOwner(r.Header.Get("Mcp-Session-Id"))
	if !ok || owner == s.Classroom.Address() || r.Header.Get(forwardHeader) != "" {
		return false
	}
	_ = s.forwardVia(c, s.proxyFor(owner, mcpSessionGone))
	return true
}

// signForward is the forward header for a client.
func (s *Server) signForward(client netip.Addr, scheme string, now time.Time) string {
	msg := client.String() + ";" + scheme + ";" + strconv.FormatInt(now.Unix(), 10)
	return msg + ";" + s.forwardMAC(msg)
}

func (s *Server) forwardMAC(msg string) string {
	m := hmac.New(sha256.New, append([]byte("examsim forward\x00"), s.CookieKey...))
	m.Write([]byte(msg))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// forwardedFor is the client and scheme a peer instance forwarded the
// request for, when its signature holds.
func (s *Server) forwardedFor(r *http.Request) (netip.Addr, string, bool) {
	h := r.Header.Get(forwardHeader)
	if h == "" || len(s.CookieKey) == 0 {
		return netip.Addr{}, "", false
	}
	i := strings.LastIndexByte(h, ';')
	if i < 0 || !hmac.Equal([]byte(h[i+1:]), []byte(s.forwardMAC(h[:i]))) {
		return netip.Addr{}, "", false
	}
	parts := strings.Split(h[:i], ";")
	if len(parts) != 3 {
		return netip.Addr{}, "", false
	}
	addr, err := netip.ParseAddr(parts[0])
	unix, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || err2 != nil {
		return netip.Addr{}, "", false
	}
	if age := s.now().Sub(time.Unix(unix, 0)); age > forwardMaxAge || age < -forwardMaxAge {
		return netip.Addr{}, "", false
	}
	return addr, parts[1], true
}
