package web

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/skip2/go-qrcode"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/web/internal/sse"
	"github.com/labstack/echo/v4/middleware"
)

// joinURL is the address students open, with the code filled in: the
// public URL when the server has one, else the one the presenter opened.
func (s *Server) joinURL(c echo.Context, code string) string {
	base := c.Scheme() + "://" + c.Request().Host
	if s.PublicURL != "" {
		base = strings.TrimSuffix(s.PublicURL, "/")
	}
	return base + "/join?code=" + url.QueryEscape(code)
}

// reachWarning says why phones cannot open joinURL, or is nil when they
// can as far as the server knows: a join URL on a loopback address opens
// only on this machine.
func (s *Server) reachWarning(joinURL string) *reachView {
	u, err := url.Parse(joinURL)
	if err != nil || !loopbackHost(u.Hostname()) {
		return nil
	}
	w := &reachView{ListenOnly: s.listensOnLoopback(), Port: "8080"}
	if _, port, err := net.SplitHostPort(s.ListenAddr); err == nil && port != "" && port != "0" {
		w.Port = port
	}
	for _, a := range s.LANAddrs {
		w.URLs = append(w.URLs, "http://"+net.JoinHostPort(a, w.Port))
	}
	return w
}

// listensOnLoopback reports whether the server listens on a loopback
// address only, so no other machine can reach it whatever the URL.
func (s *Server) listensOnLoopback() bool {
	host, _, err := net.SplitHostPort(s.ListenAddr)
	return err == nil && loopbackHost(host)
}

func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// handleHost shows the presenter screen of a run to its host.
func (s *Server) handleHost(c echo.Context) error {
	room, _, err := s.hostRoom(c)
	if err != nil {
		return err
	}
	snap := room.Snapshot()
	join := s.joinURL(c, snap.Run.Code)
	return Render(c, http.StatusOK, HostPage(hostView{Snap: snap, JoinURL: join, Reach: s.reachWarning(join), Now: s.now()}))
}

// handleHostControl carries out one of the host's buttons. Each carries
// the question the host's screen showed, so a double click acts once.
func (s *Server) handleHostControl(c echo.Context) error {
	room, _, err := s.hostRoom(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	from, ferr := strconv.Atoi(c.FormValue("from"))
	needFrom := func() error {
		if ferr != nil {
			return examsim.E(examsim.EINVALID, "class.error_bad_action")
		}
		return nil
	}
	switch c.FormValue("action") {
	case "start", "next":
		if err = needFrom(); err == nil {
			err = room.Next(ctx, from)
		}
	case "reveal":
		if err = needFrom(); err == nil {
			err = room.Reveal(ctx, from)
		}
	case "leaderboard":
		if err = needFrom(); err == nil {
			err = room.ShowLeaderboard(ctx, from)
		}
	case "end":
		err = room.End(ctx)
	case "lock", "unlock":
		err = room.SetLocked(ctx, c.FormValue("action") == "lock")
	case "autoreveal_on", "autoreveal_off":
		room.SetAutoReveal(c.FormValue("action") == "autoreveal_on")
	case "kick":
		id, perr := strconv.ParseInt(c.FormValue("player"), 10, 64)
		if perr != nil {
			return examsim.E(examsim.EINVALID, "class.error_player_not_found")
		}
		err = room.Kick(ctx, id)
	default:
		err = examsim.E(examsim.EINVALID, "class.error_bad_action")
	}
	if err != nil {
		return err
	}
	if acceptsJSON(c) {
		run := room.Run()
		return c.JSON(http.StatusOK, map[string]any{"ok": true, "phase": run.Phase, "question": run.QuestionIndex})
	}
	return c.Redirect(http.StatusSeeOther, roomURL(room.ID, "/host"))
}

// handleQR draws the join URL as a QR code, here rather than by an outside
// service, so the code never leaves the server.
func (s *Server) handleQR(c echo.Context) error {
	room, _, err := s.hostRoom(c)
	if err != nil {
		return err
	}
	png, err := qrcode.Encode(s.joinURL(c, room.Run().Code), qrcode.Medium, 440)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "private, max-age=3600")
	return c.Blob(http.StatusOK, "image/png", png)
}

// hostEvery spaces the host's live updates: a burst of a thousand
// answers becomes a few redraws a second, not a thousand.
const hostEvery = 250 * time.Millisecond

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
	out := sse.Start(c)
	if err := out.Retry(2000); err != nil {
		return nil
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	joinURL := s.joinURL(c, room.Run().Code)
	reach := s.reachWarning(joinURL)
	var sentStage string
	var sentVersion, sentLive, sentRoster uint64
	rosterLater := false // the roster waits for the next beat
	for {
		if !rosterLater && !s.awaitChange(ctx, out, stream, tick.C) {
			return nil
		}
		snap := room.Snapshot()
		now := s.now()
		v := hostView{Snap: snap, JoinURL: joinURL, Reach: reach, Now: now}
		chunks := [][]byte{clockEvent(now)}
		stageKey := fmt.Sprintf("%d/%t/%t/%t", snap.Version, snap.Run.Locked, snap.Run.EndedAt.IsZero(), snap.AutoReveal)
		// When the phones' screens move on, every phone is being sent the
		// change too: the roster (thousands of rows, by far the largest
		// redraw) follows a beat later, once, so that it takes no CPU from
		// the phones' question.
		rosterLater = snap.Version != sentVersion && sentStage != "" && !rosterLater
		sentVersion = snap.Version
		if stageKey != sentStage {
			html, err := renderFor(ctx, pageOf(c), HostStage(v))
			if err != nil {
				return err
			}
			chunks = append(chunks, sse.Event("stage", html))
			sentStage = stageKey
		}
		if snap.Live != sentLive {
			html, err := renderFor(ctx, pageOf(c), HostLive(v))
			if err != nil {
				return err
			}
			chunks = append(chunks, sse.Event("live", html))
			sentLive = snap.Live
		}
		if snap.Live != sentRoster && !rosterLater {
			html, err := renderFor(ctx, pageOf(c), HostRoster(v))
			if err != nil {
				return err
			}
			chunks = append(chunks, sse.Event("roster", html))
			sentRoster = snap.Live
		}
		if out.Send(chunks...) != nil {
			return nil
		}
		select {
		case <-time.After(hostEvery):
		case <-stream.Ended():
			_ = out.Send(endedEvent(stream.Reason())) // the stream ends either way
			return nil
		case <-ctx.Done():
			return nil
		case <-s.Classroom.Done():
			_ = out.Send(retryHint()) // best effort: the client may be gone
			return nil
		}
	}
}

// hostView is what the host's screen shows.
type hostView struct {
	Snap    *classroom.Snapshot
	JoinURL string
	Now     time.Time
	// Preview is a bank question shown as the projector would show it,
	// outside any room: no event stream, nothing to control.
	Preview bool
	// Reach, when set, warns that phones cannot open JoinURL.
	Reach *reachView
}

// reachView is the warning on the presenter screen when the join URL is
// on a loopback address: ListenOnly when the server listens on loopback
// only (it must be restarted on the LAN), URLs the machine's LAN addresses
// with the port to open instead.
type reachView struct {
	ListenOnly bool
	Port       string
	URLs       []string
}

func (v hostView) id() int64 { return v.Snap.Run.ID }
