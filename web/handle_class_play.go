package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/web/classview"
	"github.com/examsim/examsim/web/internal/sse"
)

// handlePlay shows a student their room as it is now: a reload, a new
// network or a reopened tab lands on the current question with their
// points, from the rejoin cookie alone. Without it, the student is sent to
// join (never told the code: that would let anyone skip the code).
func (s *Server) handlePlay(c echo.Context) error {
	room, player, err := s.playerRoom(c)
	if err != nil {
		if examsim.ErrorCode(err) == examsim.EFORBIDDEN {
			return c.Redirect(http.StatusSeeOther, "/join")
		}
		return err
	}
	if lang := examsim.Lang(c.QueryParam("lang")); lang != "" && lang != player.Lang {
		// The language switch: withLanguage has checked the language.
		if err := room.SetLang(c.Request().Context(), player.ID, lang); err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, roomURL(room.ID, "/play"))
	}
	v, err := s.playView(c, room.ID, player.ID)
	if err != nil {
		return err
	}
	if after, err := strconv.Atoi(c.QueryParam("after")); err == nil {
		if v.Me.Answer(after) != nil && v.Snap.Run.Mode == examsim.ModeAssignment {
			v.After = after
		}
	}
	return Render(c, http.StatusOK, PlayPage(v))
}

// playView gathers a student's page, in the student's own language.
func (s *Server) playView(c echo.Context, roomID, playerID int64) (playView, error) {
	room, err := s.Classroom.Room(c.Request().Context(), roomID)
	if err != nil {
		return playView{}, err
	}
	me, ok := room.Player(playerID)
	if !ok {
		return playView{}, examsim.E(examsim.EFORBIDDEN, "class.error_not_in_room")
	}
	pageOf(c).Lang = me.Player.Lang
	c.Response().Header().Set("Content-Language", string(me.Player.Lang))
	snap := room.Snapshot()
	now := s.now()
	if snap.Run.Mode == examsim.ModeAssignment {
		room.Open(playerID)
		me, _ = room.Player(playerID)
	}
	return newPlayView(snap, me, now), nil
}

// handlePlayAnswer takes a student's answer. The reply, a redirect for a
// plain form or a small JSON acknowledgement for script, is sent only once
// the answer is committed. In a live room it says nothing of correctness:
// that waits for the reveal.
func (s *Server) handlePlayAnswer(c echo.Context) error {
	room, player, err := s.playerRoom(c)
	if err != nil {
		return err
	}
	index, err := strconv.Atoi(c.FormValue("index"))
	if err != nil {
		return examsim.E(examsim.EINVALID, "class.error_question_closed")
	}
	choice, explanation := c.FormValue("choice"), formText(c, "explanation")
	timer := prometheus.NewTimer(s.metrics.AnswerSeconds) // wall-clock, for /metrics
	a, err := room.Answer(c.Request().Context(), player.ID, index, choice, explanation)
	if err == nil {
		timer.ObserveDuration()
	}
	if err != nil {
		if acceptsJSON(c) {
			return err
		}
		// A plain form shows the question again with the reason and the text
		// kept, also when the database cannot take the answer right now.
		show := func(status int, reason string) error {
			v, verr := s.playView(c, room.ID, player.ID)
			if verr != nil {
				return err
			}
			v.Error, v.Explanation = reason, explanation
			return Render(c, status, PlayPage(v))
		}
		if msg, ok := s.unavailableText(c, err); ok {
			return show(statusOf[examsim.EUNAVAILABLE], msg)
		}
		return formError(c, err, show)
	}
	if acceptsJSON(c) {
		ack := map[string]any{"ok": true, "question": a.QuestionIndex, "choice": a.Choice}
		if room.Run().Mode == examsim.ModeAssignment {
			ack["correct"], ack["points"] = a.Correct, a.Points
		}
		return c.JSON(http.StatusOK, ack)
	}
	next := roomURL(room.ID, "/play")
	if room.Run().Mode == examsim.ModeAssignment {
		next += "?after=" + strconv.Itoa(a.QuestionIndex)
	}
	return c.Redirect(http.StatusSeeOther, next)
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
	out := sse.Start(c)
	if err := out.Retry(2000); err != nil {
		return nil
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	var sentStage stageKey
	var sentYou youKey
	for {
		if !s.awaitChange(ctx, out, stream, tick.C) {
			return nil
		}
		snap := room.StageSnapshot()
		me, ok := room.Player(player.ID)
		if !ok {
			_ = out.Send(endedEvent(classroom.Kicked)) // the stream ends either way
			return nil
		}
		now := s.now()
		v := newPlayView(snap, me, now)
		chunks := [][]byte{clockEvent(now)}
		page.Lang = me.Player.Lang // the student may switch language mid-quiz
		// A question is rendered once per order (at most 24 of four options) and language.
		stage := stageKey{version: snap.Version, variant: v.Variant, index: v.Index, lang: page.Lang, order: strings.Join(v.Order, "")}
		if stage != sentStage {
			frag, err := s.class.fragment(room.ID, snap.Version, stage.cacheKey(),
				func() ([]byte, error) {
					shared := v
					shared.Me = classroom.PlayerView{Player: examsim.Player{Lang: page.Lang}} // the shared stage must not carry anyone's data
					html, err := renderFor(ctx, page, PlayStage(shared))
					return append(sse.Event("stage", html), stateEvent(shared)...), err
				})
			if err != nil {
				return err
			}
			chunks = append(chunks, frag)
			sentStage = stage
		}
		if you := (youKey{stage: stage, points: me.Points, rank: snap.Rank(player.ID)}); you != sentYou {
			ev, err := s.youEvent(ctx, page, room.ID, v)
			if err != nil {
				return err
			}
			chunks = append(chunks, ev)
			sentYou = you
		}
		if out.Send(chunks...) != nil {
			return nil
		}
	}
}

// stageKey is the shared stage a stream last sent: equal keys are equal
// fragments.
type stageKey struct {
	version uint64
	variant classview.Stage
	index   int
	lang    examsim.Lang
	order   string // the student's option order, joined
}

// cacheKey names the stage in the room's fragment cache (which is per
// version already).
func (k stageKey) cacheKey() string {
	return string(k.lang) + "/" + string(k.variant) + "/" + strconv.Itoa(k.index) + "/" + k.order
}

// youKey is the student's own line a stream last sent: the stage it goes
// with, their points and place.
type youKey struct {
	stage        stageKey
	points, rank int
}

// youNameStandIn stands for the student's nickname in a shared render of
// their own line. Nicknames refuse private-use characters
// (classroom.CleanNickname), so neither a nickname nor a translation holds it.
const youNameStandIn = "\uE000nickname\uE000"

// youEvent is the student's own line (PlayYou) as an event. It is rendered
// once per room version, language, stage, points, place and what it shows
// of the student's answer, with a stand-in name, and the student's escaped
// nickname is spliced in: a Next (or a reveal) reaching 2,000 phones renders
// the lines that differ, not 2,000.
func (s *Server) youEvent(ctx context.Context, page *Page, roomID int64, v playView) ([]byte, error) {
	nick := v.Me.Player.Nickname
	if strings.ContainsAny(nick, "\r\n\uE000") { // a line break would change the event's framing
		html, err := renderFor(ctx, page, PlayYou(v))
		return sse.Event("you", html), err
	}
	rank := v.Snap.Rank(v.Me.Player.ID)
	key := "you/" + string(page.Lang) + "/" + string(v.Variant) + "/" + strconv.Itoa(v.Me.Points) + "/" + strconv.Itoa(rank) + "/" +
		strconv.Itoa(len(v.Snap.Ranking)) + "/" + ownAnswerKey(v)
	shared, err := s.class.fragment(roomID, v.Snap.Version, key, func() ([]byte, error) {
		standIn := v
		// Only what the key holds: the place is read by the player's id,
		// the answer as ownAnswerKey reads it.
		standIn.Me = classroom.PlayerView{Player: examsim.Player{ID: v.Me.Player.ID, Nickname: youNameStandIn, Lang: page.Lang},
			Points: v.Me.Points, Answers: v.Me.Answers}
		html, err := renderFor(ctx, page, PlayYou(standIn))
		return sse.Event("you", html), err
	})
	if err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(shared, []byte(youNameStandIn), []byte(templ.EscapeString(nick))), nil
}

// ownAnswerKey is all that PlayYou shows of the student's answer to the
// question on screen: its choice once answered, and at the reveal whether
// it was right, its points and its explanation's score. A change to what
// PlayYou shows of it belongs here too (TestStreamedOwnLineIsThePagesOwnLine).
func ownAnswerKey(v playView) string {
	switch v.Variant {
	case classview.StageAnswered, classview.StageReveal, classview.StageLeaderboard:
	default:
		return ""
	}
	a := v.Me.Answer(v.Index)
	switch {
	case a == nil:
		return "-"
	case v.Variant == classview.StageAnswered:
		return a.Choice
	}
	return a.Choice + "/" + strconv.FormatBool(a.Correct) + "/" + strconv.Itoa(a.Points) + "/" + strconv.FormatBool(a.Explanation != "") + "/" +
		strconv.FormatBool(a.Pending) + "/" + strconv.Itoa(a.Score()) + "/" + strconv.Itoa(a.EffectiveBand())
}

// playView is what a student's page shows.
type playView struct {
	Snap    *classroom.Snapshot
	Me      classroom.PlayerView
	Index   int             // the question on screen
	Variant classview.Stage // the stage the student sees
	Now     time.Time
	// Order is the student's own order of the question's options: see classview.OptionOrder.
	Order []string
	// After is the assignment question just answered, for its feedback; -1 none.
	After int
	// Form state kept across a failed plain-form answer.
	Error       string
	Explanation string
}

// newPlayView is a student's page at now: the stage they see and the
// question on it, the room's in a live room, their next in an assignment.
func newPlayView(snap *classroom.Snapshot, me classroom.PlayerView, now time.Time) playView {
	v := playView{Snap: snap, Me: me, Now: now, After: -1, Index: snap.Run.QuestionIndex, Variant: classview.StageOf(snap, me, now)}
	if snap.Run.Mode == examsim.ModeAssignment {
		v.Index = me.Next
	}
	if q := v.question(); q != nil && (v.Variant == classview.StageQuestion || v.Variant == classview.StageAssign) {
		v.Order = classview.OptionOrder(snap.Run.ID, me.Player.ID, v.Index, ownLetters(q))
	}
	return v
}

func (v playView) question() *questions.Question {
	if v.Index >= 0 && v.Index < len(v.Snap.Questions) {
		return v.Snap.Questions[v.Index]
	}
	return nil
}

// classState is what the classroom pages keep between requests.
type classState struct {
	mu    sync.RWMutex
	frags map[int64]*roomFragments
}

// roomFragments caches a room's student fragments for one version, so a
// change reaching a thousand students is rendered once per language.
type roomFragments struct {
	version uint64
	byKey   map[string]*fragmentEntry
}

// fragmentEntry is one cached fragment; done closes once it is rendered.
// The thousand streams a change wakes all miss at once, so the first one
// renders and the rest wait for it instead of each rendering it again.
type fragmentEntry struct {
	done chan struct{}
	b    []byte
	err  error
}

// fragment returns a cached SSE event for a room version, rendering it
// with render once per version and key.
func (cs *classState) fragment(room int64, version uint64, key string, render func() ([]byte, error)) ([]byte, error) {
	cs.mu.RLock()
	e := cs.frags[room].entry(version, key)
	cs.mu.RUnlock()
	if e == nil {
		var mine bool
		if e, mine = cs.claim(room, version, key); e == nil {
			return render() // an older version than the room's: rendered, not kept
		}
		if mine {
			e.b, e.err = render()
			close(e.done)
			if e.err != nil {
				cs.forget(room, version, key, e)
			}
			return e.b, e.err
		}
	}
	<-e.done
	return e.b, e.err
}

// entry is the cached fragment for version and key, or nil.
func (rf *roomFragments) entry(version uint64, key string) *fragmentEntry {
	if rf == nil || rf.version != version {
		return nil
	}
	return rf.byKey[key]
}

// claim returns the entry for version and key, making it (mine) when there
// is none yet; nil when the room has moved past version.
func (cs *classState) claim(room int64, version uint64, key string) (e *fragmentEntry, mine bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	rf := cs.frags[room]
	if rf == nil || rf.version < version {
		if len(cs.frags) > 1000 { // rooms long gone: start afresh rather than grow
			cs.frags = map[int64]*roomFragments{}
		}
		rf = &roomFragments{version: version, byKey: map[string]*fragmentEntry{}}
		cs.frags[room] = rf
	}
	if rf.version != version {
		return nil, false
	}
	if e = rf.byKey[key]; e != nil {
		return e, false
	}
	e = &fragmentEntry{done: make(chan struct{})}
	rf.byKey[key] = e
	return e, true
}

// forget drops a failed render, so the next stream tries again.
func (cs *classState) forget(room int64, version uint64, key string, e *fragmentEntry) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if rf := cs.frags[room]; rf.entry(version, key) == e {
		delete(rf.byKey, key)
	}
}

// stateEvent is a stage's phase, question and choices as JSON, for programs
// that follow a room (the load generator) without reading its HTML.
func stateEvent(v playView) []byte {
	st := struct {
		Phase   string   `json:"phase"`
		Index   int      `json:"index"`
		Choices []string `json:"choices,omitempty"`
	}{Phase: string(v.Variant), Index: v.Index}
	if q := v.question(); q != nil && (v.Variant == classview.StageQuestion || v.Variant == classview.StageAssign) {
		for _, o := range q.In(v.Me.Player.Lang).Options {
			st.Choices = append(st.Choices, o.Letter)
		}
	}
	b, _ := json.Marshal(st) // strings and ints only: it cannot fail
	return sse.Event("state", b)
}

// tiles are the question's options in the student's own order (v.Order),
// each with its own letter in Own.
func (v playView) tiles(tx *questions.Text) []shownOption {
	return shownOptions(&examsim.ExamItem{Options: v.Order}, tx)
}
