package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/examsim/examsim/internal/loadgen"
	"github.com/examsim/examsim/internal/scenario"
	"github.com/examsim/examsim/sandbox"
)

// sseLog is one event stream as a client read it.
type sseLog struct {
	name   string
	opened chan struct{} // the first event (or, for MCP, the headers) arrived
	ended  chan struct{} // the server ended the response
	lines  []string
	err    error
}

// readStream opens an event stream with connect and reads it until the
// server ends it.
func readStream(name string, connect func() (*http.Response, error), openOnHeaders bool) *sseLog {
	s := &sseLog{name: name, opened: make(chan struct{}), ended: make(chan struct{})}
	go func() {
		defer close(s.ended)
		var once sync.Once
		open := func() { once.Do(func() { close(s.opened) }) }
		resp, err := connect()
		if err != nil {
			s.err = err
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			b, _ := io.ReadAll(resp.Body)
			s.err = fmt.Errorf("status %d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), loadgen.Excerpt(string(b)))
			return
		}
		if openOnHeaders {
			open()
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 8<<20)
		for sc.Scan() {
			s.lines = append(s.lines, sc.Text())
			if sc.Text() == "" {
				open()
			}
		}
		s.err = sc.Err() // nil: a clean end of the response
	}()
	return s
}

// lastWord returns the stream's last non-empty line and how many retry
// hints it carried.
func (s *sseLog) lastWord() (last string, retries int) {
	for _, l := range s.lines {
		if strings.HasPrefix(l, "retry: ") {
			retries++
		}
		if l != "" {
			last = l
		}
	}
	return last, retries
}

// openMCPStream starts an MCP session over HTTP and opens its GET event
// stream, as an MCP client that listens for server messages does.
func openMCPStream(ctx context.Context, base string) (*sseLog, error) {
	post := func(body, session string) (*http.Response, error) {
		req, _ := http.NewRequestWithContext(ctx, "POST", base+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", sandbox.ProtocolVersion)
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return resp, err
	}
	resp, err := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+sandbox.ProtocolVersion+
		`","capabilities":{},"clientInfo":{"name":"shutdown-test","version":"1"}}}`, "")
	if err != nil {
		return nil, err
	}
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || session == "" {
		return nil, fmt.Errorf("MCP initialize: status %d, session %q", resp.StatusCode, session)
	}
	if resp, err := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, session); err != nil || resp.StatusCode >= 300 {
		return nil, fmt.Errorf("MCP initialized: %v %v", resp, err)
	}
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/mcp", nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", sandbox.ProtocolVersion)
	return readStream("mcp", func() (*http.Response, error) { return http.DefaultClient.Do(req) }, true), nil
}

// TestSIGTERMFinishesRequestsAndClosesStreams stops a real examsim process
// with SIGTERM in the middle of a burst of classroom answers, with every
// student's event stream, the host's and an MCP client's open. The server
// must end each stream with a retry hint (so browsers come back by
// themselves once it is up again), finish the answers in flight, commit
// them before the database closes, and exit 0.
func TestSIGTERMFinishesRequestsAndClosesStreams(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	p := startLiveRoomProcess(ctx, t, "shutdown", 2, 40, "p")
	room, class, srv := p.room, p.class, p.srv

	var (
		streams   []*sseLog
		mcpStream *sseLog
	)
	acked := map[string]string{}
	scenario.Run(t, scenario.Step{Name: "every event stream opens", Run: func(t *testing.T) {
		eventStream := func(name string, u *loadgen.VUser, path string) *sseLog {
			return readStream(name, func() (*http.Response, error) { return u.OpenStream(ctx, path) }, false)
		}
		for _, st := range class {
			streams = append(streams, eventStream(st.nick, st.u, "/class/s/"+room.ID+"/events"))
		}
		streams = append(streams, eventStream("host", room.host, "/class/s/"+room.ID+"/host/events"))
		var err error
		if mcpStream, err = openMCPStream(ctx, srv.URL); err != nil {
			t.Fatal(err)
		}
		streams = append(streams, mcpStream)
		for _, s := range streams {
			select {
			case <-s.opened:
			case <-s.ended:
				t.Fatalf("the %s stream ended before SIGTERM: %v", s.name, s.err)
			case <-ctx.Done():
				t.Fatalf("the %s stream never opened", s.name)
			}
		}
	}}, scenario.Step{Name: "SIGTERM in the middle of a burst exits 0", Run: func(t *testing.T) {
		if err := room.control(ctx, "next", -1); err != nil {
			t.Fatal(err)
		}
		// Everyone answers at once; SIGTERM goes with the first acknowledgement,
		// while the rest are in flight.
		var (
			mu        sync.Mutex
			unacked   int
			terminate sync.Once
			burst     sync.WaitGroup
		)
		for _, st := range class {
			burst.Add(1)
			go func() {
				defer burst.Done()
				text := st.nick + " says: validation error, do not retry"
				_, ok := room.answer(ctx, st, 0, "B", text)
				mu.Lock()
				defer mu.Unlock()
				if !ok {
					unacked++
					return
				}
				acked[st.nick] = text
				terminate.Do(func() { srv.cmd.Process.Signal(sigterm) })
			}()
		}
		burst.Wait()
		terminate.Do(func() { srv.cmd.Process.Signal(sigterm) })
		waitStart := time.Now()
		if code := srv.wait(t, 30*time.Second); code != 0 {
			t.Fatalf("examsim serve exited %d on SIGTERM", code)
		}
		t.Logf("%d answers acknowledged, %d not (sent after the server stopped accepting); the server exited %s after the burst",
			len(acked), unacked, time.Since(waitStart).Round(time.Millisecond))
		if len(acked) == 0 {
			t.Fatal("no answer was acknowledged")
		}
		for _, want := range []string{"examsim: stopping", "examsim: stopped"} {
			if !strings.Contains(srv.out.String(), want) {
				t.Errorf("the server did not say %q:\n%s", want, srv.out.String())
			}
		}
	}}, scenario.Step{Name: "every stream ends with a retry hint", Run: func(t *testing.T) {
		for _, s := range streams {
			select {
			case <-s.ended:
			case <-time.After(10 * time.Second):
				t.Fatalf("the %s stream is still open after the server exited", s.name)
			}
			last, retries := s.lastWord()
			wantRetries := 2 // one on opening, one on closing
			if s == mcpStream {
				wantRetries = 1
			}
			if s.err != nil || !strings.HasPrefix(last, "retry: ") || retries < wantRetries {
				t.Errorf("the %s stream ended with %q after %d retry hints (err %v); want a closing retry hint", s.name, last, retries, s.err)
			}
		}
	}}, scenario.Step{Name: "every acknowledged answer is stored", Run: func(t *testing.T) {
		stored, _ := storedAnswers(ctx, t, p.db, room.ID)
		for nick, text := range acked {
			switch a := stored[answerKey{nick, 0}]; {
			case a == nil:
				t.Errorf("LOST: %s's acknowledged answer (nothing stored)", nick)
			case a.Explanation != text:
				t.Errorf("LOST: %s's acknowledged answer (stored: %q)", nick, a.Explanation)
			}
		}
	}})
}
