package web

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/examsim/examsim/web/internal/sse"
	"github.com/labstack/echo/v4"
)

// ceilingBody is what GET /_ceiling answers: 4 KiB of fixed text, built
// once; about the size of a practice question page (home is 2 to 3 KiB,
// /healthz under 100 bytes), so the ceiling costs no less to send than the
// pages it is compared with, and only their work is measured.
var ceilingBody = bytes.Repeat([]byte("examsim ceiling: a fixed byte slice.\n"), 4096/37+1)[:4096]

// handleCeiling answers with fixed bytes through the same echo server and
// global middleware as every page, with no page work at all: the ceiling
// the wrk load run compares each page's throughput with. It is mounted only
// when Config.BenchCeiling is set (examsim serve --bench-ceiling).
func (s *Server) handleCeiling(c echo.Context) error {
	return c.Blob(http.StatusOK, echo.MIMETextPlainCharsetUTF8, ceilingBody)
}

// ceilingEvent is the one event the fan-out ceiling writes to every stream:
// encoded once, about the size of a question's stage event to a phone, so
// the ceiling sends no less than the room it is compared with.
var ceilingEvent = sse.Event("ceiling", bytes.Repeat([]byte("x"), 4096))

// fanoutRound is one fan-out of the ceiling: done closes when it fires, and
// next (set before done closes) is the round after it. A stream walks the
// chain, so it misses no round and takes no lock to wait for one.
type fanoutRound struct {
	done  chan struct{}
	next  *fanoutRound
	fired time.Time // set before done closes
}

// fanoutCeiling is the benchmark-only stream set behind /_ceiling/events:
// the same middleware and stream code as a room's streams, with no room,
// no room lock and no rendering, so the load run can tell the server's
// fan-out cost apart from the machine's.
type fanoutCeiling struct {
	mu      sync.Mutex // serialises fire; streams never take it
	cur     atomic.Pointer[fanoutRound]
	streams atomic.Int64
}

func newFanoutCeiling() *fanoutCeiling {
	f := &fanoutCeiling{}
	f.cur.Store(&fanoutRound{done: make(chan struct{})})
	return f
}

// fire wakes every stream to write the ceiling event once, and says how
// many streams were open.
func (f *fanoutCeiling) fire() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	round := f.cur.Load()
	round.fired = time.Now()
	round.next = &fanoutRound{done: make(chan struct{})}
	f.cur.Store(round.next)
	close(round.done)
	return f.streams.Load()
}

// handleCeilingEvents holds an event stream that writes ceilingEvent at
// each fan-out, as handlePlayEvents holds a student's.
func (s *Server) handleCeilingEvents(c echo.Context) error {
	ctx := c.Request().Context()
	round := s.fanout.cur.Load()
	s.fanout.streams.Add(1)
	defer s.fanout.streams.Add(-1)
	out := sse.Start(c)
	if out.Retry(2000) != nil || out.Event("ready", nil) != nil {
		return nil
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-round.done:
			fired := round.fired
			round = round.next
			if out.Send(ceilingEvent) != nil {
				return nil
			}
			s.metrics.CeilingSeconds.Observe(time.Since(fired).Seconds())
		case <-tick.C:
			if out.Ping() != nil {
				return nil
			}
		case <-ctx.Done():
			return nil
		case <-s.closing.context().Done():
			return nil
		}
	}
}

// handleCeilingFanout fires one fan-out and answers with the number of
// streams it reached.
func (s *Server) handleCeilingFanout(c echo.Context) error {
	return c.String(http.StatusOK, strconv.FormatInt(s.fanout.fire(), 10))
}
