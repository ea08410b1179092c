package web

import (
	"context"
	"time"

	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/web/internal/sse"
)

const keepAlive = 25 * time.Second // a comment line keeps proxies from closing an idle stream

// endedEvent tells a page why the room closed its stream: a kicked student
// goes to the join page; a screen replaced by a newer one of the same
// person stops reconnecting, or the two would keep closing each other.
func endedEvent(why classroom.EndReason) []byte {
	if why == classroom.Kicked {
		return sse.Event("kicked", []byte("/join?kicked=1"))
	}
	if why == classroom.Moved { // the browser reconnects, through the balancer, to the room's new owner
		return retryHint()
	}
	return sse.Event("replaced", nil)
}

func clockEvent(now time.Time) []byte {
	return sse.Event("clock", []byte(unixMilli(now)))
}

// awaitChange waits for the room to change, pinging an idle stream on
// tick; false means the stream is over, its last word already sent.
func (s *Server) awaitChange(ctx context.Context, out *sse.Stream, stream *classroom.Stream, tick <-chan time.Time) bool {
	for {
		select {
		case <-stream.C():
			return true
		case <-stream.Ended():
			_ = out.Send(endedEvent(stream.Reason())) // the stream ends either way
			return false
		case <-tick:
			if out.Ping() != nil {
				return false
			}
		case <-ctx.Done():
			return false
		case <-s.Classroom.Done(): // shutting down: come back in a moment
			_ = out.Send(retryHint()) // best effort: the client may be gone
			return false
		}
	}
}
