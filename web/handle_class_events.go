package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
)

const (
	keepAlive = 25 * time.Second // a comment line keeps proxies from closing an idle stream
	// hostEvery spaces the host's live updates: a burst of a thousand
	// answers becomes a few redraws a second, not a thousand.
	hostEvery = 250 * time.Millisecond
)

// endedEvent tells a page why the room closed its stream: a kicked student
// goes to the join page; a screen replaced by a newer one of the same
// person stops reconnecting, or the two would keep closing each other.
func endedEvent(why classroom.EndReason) []byte {
	if why == classroom.Kicked {
		return sseEvent("kicked", []byte("/join?kicked=1"))
	}
	if why == classroom.Moved { // the browser reconnects, through the balancer, to the room's new owner
		return retryHint()
	}
	return sseEvent("replaced", nil)
}

func clockEvent(now time.Time) []byte {
	return sseEvent("clock", []byte(unixMilli(now)))
}

// awaitChange waits for the room to change, pinging an idle stream on
// tick; false means the stream is over, its last word already sent.
func (s *Server) awaitChange(ctx context.Context, out *sse, stream *classroom.Stream, tick <-chan time.Time) bool {
	for {
		select {
		case <-stream.C():
			return true
		case <-stream.Ended():
			_ = out.send(endedEvent(stream.Reason())) // the stream ends either way
			return false
		case <-tick:
			if out.ping() != nil {
				return false
			}
		case <-ctx.Done():
			return false
		case <-s.Classroom.Done(): // shutting down: come back in a moment
			_ = out.send(retryHint()) // best effort: the client may be gone
			return false
		}
	}
}

// handlePlayEvents streams a student's screen: the stage when the room moves
// on (rendered once per language and shared by the room) and their own line.
// Opening it after losing it counts as a reconnect, which the host sees.
func (s *Server) handlePlayEvents(c echo.Context) error {
	room, player, err := s.playerRoom(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	page := &Page{Lang: player.Lang, Catalog: s.Catalog, Bank: s.Bank, URL: c.Request().URL, Zone: zoneOf(c.Request())}
	stream := room.Watch(player.ID)
	defer stream.Close()
	out := startSSE(c)
	if err := out.retry(2000); err != nil {
		return nil
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	var sentStage, sentYou string
	for {
		if !s.awaitChange(ctx, out, stream, tick.C) {
			return nil
		}
		snap := room.StageSnapshot()
		me, ok := room.Player(player.ID)
		if !ok {
			_ = out.send(endedEvent(classroom.Kicked)) // the stream ends either way
			return nil
		}
		now := s.now()
		v := newPlayView(snap, me, now)
		chunks := [][]byte{clockEvent(now)}
		page.Lang = me.Player.Lang // the student may switch language mid-quiz
		// A question is rendered once per order (at most 24 of four options) and language.
		order := strings.Join(v.Order, "")
		stageKey := fmt.Sprintf("%d/%s/%d/%s/%s", snap.Version, v.Variant, v.Index, page.Lang, order)
		if stageKey != sentStage {
			frag, err := s.class.fragment(room.ID, snap.Version, string(page.Lang)+"/"+v.Variant+"/"+strconv.Itoa(v.Index)+"/"+order,
				func() ([]byte, error) {
					shared := v
					shared.Me = classroom.PlayerView{Player: examsim.Player{Lang: page.Lang}} // the shared stage must not carry anyone's data
					html, err := renderFor(ctx, page, PlayStage(shared))
					return append(sseEvent("stage", html), stateEvent(shared)...), err
				})
			if err != nil {
				return err
			}
			chunks = append(chunks, frag)
			sentStage = stageKey
		}
		youKey := fmt.Sprintf("%s/%d/%d", stageKey, me.Points, snap.Rank(player.ID))
		if youKey != sentYou {
			html, err := renderFor(ctx, page, PlayYou(v))
			if err != nil {
				return err
			}
			chunks = append(chunks, sseEvent("you", html))
			sentYou = youKey
		}
		if out.send(chunks...) != nil {
			return nil
		}
	}
}

// handleHostEvents streams the host's screen: the stage when the phase
// changes, and the live counts and the teacher's roster at most a few
// times a second however fast answers arrive.
func (s *Server) handleHostEvents(c echo.Context) error {
	room, _, err := s.hostRoom(c)
	if err != nil {
		return err
	}
	if tok, ok := c.Get(middleware.DefaultCSRFConfig.ContextKey).(string); ok {
		pageOf(c).CSRF = tok // the host's forms arrive down the stream
	}
	ctx := c.Request().Context()
	stream := room.Watch(0)
	defer stream.Close()
	out := startSSE(c)
	if err := out.retry(2000); err != nil {
		return nil
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	joinURL := s.joinURL(c, room.Run().Code)
	reach := s.reachWarning(joinURL)
	var sentStage string
	var sentLive uint64
	for {
		if !s.awaitChange(ctx, out, stream, tick.C) {
			return nil
		}
		snap := room.Snapshot()
		now := s.now()
		v := hostView{Snap: snap, JoinURL: joinURL, Reach: reach, Now: now}
		chunks := [][]byte{clockEvent(now)}
		stageKey := fmt.Sprintf("%d/%t/%t/%t", snap.Version, snap.Run.Locked, snap.Run.EndedAt.IsZero(), snap.AutoReveal)
		if stageKey != sentStage {
			html, err := renderFor(ctx, pageOf(c), HostStage(v))
			if err != nil {
				return err
			}
			chunks = append(chunks, sseEvent("stage", html))
			sentStage = stageKey
		}
		if snap.Live != sentLive {
			html, err := renderFor(ctx, pageOf(c), HostLive(v))
			if err != nil {
				return err
			}
			chunks = append(chunks, sseEvent("live", html))
			if html, err = renderFor(ctx, pageOf(c), HostRoster(v)); err != nil {
				return err
			}
			chunks = append(chunks, sseEvent("roster", html))
			sentLive = snap.Live
		}
		if out.send(chunks...) != nil {
			return nil
		}
		select {
		case <-time.After(hostEvery):
		case <-stream.Ended():
			_ = out.send(endedEvent(stream.Reason())) // the stream ends either way
			return nil
		case <-ctx.Done():
			return nil
		case <-s.Classroom.Done():
			_ = out.send(retryHint()) // best effort: the client may be gone
			return nil
		}
	}
}
