package web

import (
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A forwarded request's client address and scheme count only with a valid,
// fresh signature under the instances' shared key: a client writing the
// header itself picks neither its rate-limit key nor Secure cookies.
func TestForwardedClientNeedsTheSharedKey(t *testing.T) {
	s := &Server{Config: Config{CookieKey: []byte("shared key of the instances")}}
	other := &Server{Config: Config{CookieKey: []byte("some other key")}}
	client := netip.MustParseAddr("203.0.113.7")
	now := time.Now()
	good := s.signForward(client, "https", now)
	tests := []struct {
		name   string
		header string
		want   bool
	}{
		{"signed", good, true},
		{"another address under the same signature", strings.Replace(good, "203.0.113.7", "198.51.100.1", 1), false},
		{"another scheme under the same signature", strings.Replace(good, "https", "http", 1), false},
		{"signed with another key", other.signForward(client, "https", now), false},
		{"too old", s.signForward(client, "https", now.Add(-2*forwardMaxAge)), false},
		{"garbage", "203.0.113.7;https", false},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/class/s/1/events", nil)
		r.RemoteAddr = "192.0.2.9:4000"
		r.Header.Set(forwardHeader, tt.header)
		addr, scheme, ok := s.forwardedFor(r)
		if ok != tt.want {
			t.Errorf("%s: believed %v, want %v", tt.name, ok, tt.want)
		}
		wantAddr := netip.MustParseAddr("192.0.2.9")
		if tt.want {
			wantAddr = client
			if scheme != "https" || addr != client {
				t.Errorf("%s: %v %s", tt.name, addr, scheme)
			}
		}
		if got := s.clientAddr(r); got != wantAddr {
			t.Errorf("%s: client address %v, want %v", tt.name, got, wantAddr)
		}
		if got := s.overTLS(r); got != tt.want {
			t.Errorf("%s: over TLS %v, want %v", tt.name, got, tt.want)
		}
	}
}

// An MCP session id names its instance under the shared key; one naming
// any other address is not forwarded anywhere.
func TestMCPSessionOwner(t *testing.T) {
	s := &Server{Config: Config{CookieKey: []byte("shared key of the instances")}}
	id := s.mcpSessionPrefix("http://10.0.0.11:8080") + "RANDOMPART"
	if addr, ok := s.mcpSessionOwner(id); !ok || addr != "http://10.0.0.11:8080" {
		t.Fatalf("own session id: %q %v", addr, ok)
	}
	forged := (&Server{Config: Config{CookieKey: []byte("guess")}}).mcpSessionPrefix("http://169.254.169.254") + "X"
	for _, bad := range []string{forged, "", "PLAINSDKID", "aHR0cDovL2V2aWw.x.y"} {
		if addr, ok := s.mcpSessionOwner(bad); ok {
			t.Errorf("session id %q names %q", bad, addr)
		}
	}
}

// A burst forwarded to a room's owner reuses its connections: the default
// transport keeps two idle ones per host, so each wave of a burst opened
// and closed a connection per request.
func TestForwardingReusesConnectionsToTheOwner(t *testing.T) {
	var opened atomic.Int64
	release := make(chan struct{})
	owner := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release // hold each request until the whole wave is in flight
		w.WriteHeader(http.StatusNoContent)
	}))
	owner.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			opened.Add(1)
		}
	}
	owner.Start()
	defer owner.Close()
	s := &Server{Config: Config{Logger: slog.New(slog.DiscardHandler)}}
	p := s.proxyFor(owner.URL, func(w http.ResponseWriter) { w.WriteHeader(http.StatusBadGateway) })
	const wave = 40
	for round := range 3 {
		var inFlight, done sync.WaitGroup
		for range wave {
			inFlight.Add(1)
			done.Add(1)
			go func() {
				defer done.Done()
				rec := httptest.NewRecorder()
				inFlight.Done()
				p.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/class/s/1/answer", nil))
				if rec.Code != http.StatusNoContent {
					t.Errorf("round %d: forwarded answer got %d", round, rec.Code)
				}
			}()
		}
		inFlight.Wait()
		time.Sleep(50 * time.Millisecond) // let the wave reach the owner
		for range wave {
			release <- struct{}{}
		}
		done.Wait()
	}
	if n := opened.Load(); n > wave {
		t.Errorf("three waves of %d forwarded requests opened %d connections to the owner; want at most %d (one wave's)", wave, n, wave)
	}
}
