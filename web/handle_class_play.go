package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	var nick escapedNickname
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
		// Sent as one write (sse.Send): the clock, the stage around its
		// tiles, and the own line around the nickname.
		var batch [12][]byte
		chunks := append(batch[:0], clockEvent(now))
		page.Lang = me.Player.Lang // the student may switch language mid-quiz
		shared := v.stageKey(page.Lang)
		stage := shared
		stage.order = strings.Join(v.Order, "")
		// A new question to a phone that was already here: timed for
		// FanoutSeconds once it is written.
		newQuestion := v.Variant == classview.StageQuestion && sentStage != (stageKey{}) && stage.index != sentStage.index
		if stage != sentStage {
			// Rendered once per language; each student's order of the
			// answer tiles is put together from its pieces.
			frag, err := s.sharedFragment(ctx, page, room.ID, fragmentKey{event: "stage", stage: shared}, v, renderStage)
			if err == nil && !frag.fits(v.Order) { // not split around its tiles: rendered in this order
				frag, err = s.sharedFragment(ctx, page, room.ID, fragmentKey{event: "stage", stage: stage}, v, renderStageInOrder)
			}
			if err != nil {
				return err
			}
			chunks = frag.appendTo(chunks, v.Order)
			sentStage = stage
		}
		if you := (youKey{stage: stage, points: me.Points, rank: v.shownRank()}); you != sentYou {
			if chunks, err = s.youEvent(ctx, page, room.ID, v, nick.of(me.Player.Nickname), chunks); err != nil {
				return err
			}
			sentYou = you
		}
		if out.Send(chunks...) != nil {
			return nil
		}
		if newQuestion && !snap.ChangedAt.IsZero() {
			s.metrics.FanoutSeconds.Observe(time.Since(snap.ChangedAt).Seconds())
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

// stageKey is the stage v shows in lang, shared by every student whatever
// their order of the answer tiles.
func (v playView) stageKey(lang examsim.Lang) stageKey {
	return stageKey{version: v.Snap.Version, variant: v.Variant, index: v.Index, lang: lang}
}

// youKey is the student's own line a stream last sent: the stage it goes
// with, their points and the place it shows.
type youKey struct {
	stage        stageKey
	points, rank int
}

// fragmentKey names a fragment in a room version's cache: a stage, or an
// own line by all that it shows but the nickname.
type fragmentKey struct {
	event string // "stage" or "you"
	stage stageKey
	// The own line's: points, place, players placed, and the answer.
	points, rank, ranked int
	answer               ownAnswer
}

// youNameStandIn stands for the student's nickname in a shared render of
// their own line. Nicknames refuse private-use characters
// (classroom.CleanNickname), so neither a nickname nor a translation holds it.
const youNameStandIn = "\uE000nickname\uE000"

// escapedNickname is a stream's nickname as HTML, escaped once rather than
// at every change.
type escapedNickname struct {
	nick string
	html []byte
}

func (e *escapedNickname) of(nick string) []byte {
	if e.html == nil || e.nick != nick {
		e.nick, e.html = nick, []byte(templ.EscapeString(nick))
	}
	return e.html
}

// youEvent appends the student's own line (PlayYou) as an event to chunks.
// It is rendered once per room version, language, stage, points, place and
// what it shows of the student's answer, with a stand-in name, and kept
// split around it; the student's escaped nickname (nickHTML) goes between
// the pieces, which Send joins in its one write. A Next (or a reveal)
// reaching 2,000 phones renders the lines that differ, not 2,000, and
// copies none.
func (s *Server) youEvent(ctx context.Context, page *Page, roomID int64, v playView, nickHTML []byte, chunks [][]byte) ([][]byte, error) {
	if strings.ContainsAny(v.Me.Player.Nickname, "\r\n\uE000") { // a line break would change the event's framing
		own, err := renderYou(ctx, page, v)
		return append(chunks, own), err
	}
	key := fragmentKey{event: "you", stage: v.stageKey(page.Lang), points: v.Me.Points, answer: ownAnswerOf(v)}
	if key.rank = v.shownRank(); key.rank > 0 {
		key.ranked = len(v.Snap.Ranking)
	}
	shared, err := s.sharedFragment(ctx, page, roomID, key, v, renderSharedYou)
	if err != nil {
		return nil, err
	}
	for i, part := range shared.parts {
		if i > 0 {
			chunks = append(chunks, nickHTML)
		}
		chunks = append(chunks, part)
	}
	return chunks, nil
}

// sharedFragment is the room version's fragment for key, rendered from v
// by render on the first ask. A stream that finds it cached (all but a few
// of the 2,000 a Next wakes) allocates nothing: only a miss makes the
// closure that holds v.
func (s *Server) sharedFragment(ctx context.Context, page *Page, roomID int64, key fragmentKey, v playView,
	render func(context.Context, *Page, playView) (*sharedEvent, error)) (*sharedEvent, error) {
	if e, ok := s.class.cached(roomID, key.stage.version, key); ok {
		return e, nil
	}
	return s.class.renderAndKeep(roomID, key.stage.version, key, func() (*sharedEvent, error) { return render(ctx, page, v) })
}

// sharedEvent is a cached event in pieces, for Send to join: a question's
// stage split around its answer tiles (parts[1+i] is the tile lettered
// letters[i]), or an own line split around the nickname.
type sharedEvent struct {
	parts   [][]byte
	letters []string
}

// fits says whether the event can be sent with its tiles in order: it has
// no tiles to order, or a tile for each letter of order.
func (e *sharedEvent) fits(order []string) bool {
	if len(order) == 0 {
		return true
	}
	if len(order) != len(e.letters) {
		return false
	}
	for _, letter := range order {
		if !slices.Contains(e.letters, letter) {
			return false
		}
	}
	return true
}

// appendTo appends the event's pieces to chunks, a question's tiles in
// order (the student's own: classview.OptionOrder), which it fits.
func (e *sharedEvent) appendTo(chunks [][]byte, order []string) [][]byte {
	if len(e.letters) == 0 {
		return append(chunks, e.parts...)
	}
	chunks = append(chunks, e.parts[0])
	for _, letter := range order {
		chunks = append(chunks, e.parts[1+slices.Index(e.letters, letter)])
	}
	return append(chunks, e.parts[len(e.parts)-1])
}

// tileMark marks where each answer tile starts, and the last one ends, in
// a stage rendered once for students whose orders differ. No bank text can
// hold it: goldmark drops raw HTML, and templ escapes all other text.
const tileMark = "<!--tile-->"

// renderStage renders the stage v shows, shared by every student who sees
// it in page's language, with its state line. A question's tiles are
// rendered in the question's order and marked, and the event is split
// around them; should it not split into a piece per tile, it is kept
// whole, without tiles to order, and each order is rendered on its own
// (renderStageInOrder).
func renderStage(ctx context.Context, page *Page, v playView) (*sharedEvent, error) {
	var letters []string
	if v.Order != nil {
		letters = ownLetters(v.question())
		v.Order, v.tileMark = letters, tileMark
	}
	e, err := renderStageInOrder(ctx, page, v)
	if err != nil || letters == nil {
		return e, err
	}
	parts := bytes.Split(e.parts[0], []byte(tileMark)) // the last piece ends with the state line
	if len(parts) != len(letters)+2 {
		return e, nil
	}
	return &sharedEvent{parts: parts, letters: letters}, nil
}

// renderStageInOrder renders the stage v shows, with its tiles in v.Order,
// as one piece with its state line.
func renderStageInOrder(ctx context.Context, page *Page, v playView) (*sharedEvent, error) {
	v.Me = classroom.PlayerView{Player: examsim.Player{Lang: page.Lang}} // the shared stage must not carry anyone's data
	html, err := renderFor(ctx, page, PlayStage(v))
	if err != nil {
		return nil, err
	}
	return &sharedEvent{parts: [][]byte{append(sse.Event("stage", html), stateEvent(v)...)}}, nil
}

// renderSharedYou renders v's own line with the stand-in name, split around
// it, carrying only what the fragment's key holds: the place is read by the
// player's id, the answer as ownAnswerOf reads it.
func renderSharedYou(ctx context.Context, page *Page, v playView) (*sharedEvent, error) {
	v.Me = classroom.PlayerView{Player: examsim.Player{ID: v.Me.Player.ID, Nickname: youNameStandIn, Lang: page.Lang},
		Points: v.Me.Points, Answers: v.Me.Answers}
	own, err := renderYou(ctx, page, v)
	if err != nil {
		return nil, err
	}
	return &sharedEvent{parts: bytes.Split(own, []byte(youNameStandIn))}, nil
}

// renderYou renders v's own line as an event.
func renderYou(ctx context.Context, page *Page, v playView) ([]byte, error) {
	html, err := renderFor(ctx, page, PlayYou(v))
	return sse.Event("you", html), err
}

// ownAnswer is all that PlayYou shows of the student's answer to the
// question on screen: its choice once answered, and at the reveal whether
// it was right, its points and its explanation's score. A change to what
// PlayYou shows of it belongs here too (TestStreamedOwnLineIsThePagesOwnLine).
type ownAnswer struct {
	none                         bool // the stage shows the answer, and there is none
	choice                       string
	correct, explained, pending  bool
	points, score, effectiveBand int
}

func ownAnswerOf(v playView) ownAnswer {
	switch v.Variant {
	case classview.StageAnswered, classview.StageReveal, classview.StageLeaderboard:
	default:
		return ownAnswer{}
	}
	a := v.Me.Answer(v.Index)
	switch {
	case a == nil:
		return ownAnswer{none: true}
	case v.Variant == classview.StageAnswered:
		return ownAnswer{choice: a.Choice}
	}
	return ownAnswer{choice: a.Choice, correct: a.Correct, points: a.Points, explained: a.Explanation != "",
		pending: a.Pending, score: a.Score(), effectiveBand: a.EffectiveBand()}
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
	// tileMark, when set, marks where each answer tile starts and the last
	// ends, in a stage shared by students whose orders differ.
	tileMark string
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

// shownRank is the place the student's own line shows, 0 for none: once
// answers are revealed, in a quiz with a leaderboard.
func (v playView) shownRank() int {
	switch v.Variant {
	case classview.StageReveal, classview.StageLeaderboard, classview.StageEnded:
		if v.Snap.Run.Quiz.Leaderboard {
			return v.Snap.Rank(v.Me.Player.ID)
		}
	}
	return 0
}

func (v playView) question() *questions.Question {
	if v.Index >= 0 && v.Index < len(v.Snap.Questions) {
		return v.Snap.Questions[v.Index]
	}
	return nil
}

// classState is what the classroom pages keep between requests. Its
// fragment cache is read without a lock: every stream a Next wakes reads
// it at once, and one parked behind a writer (a render being kept) would
// run again only after the thousands woken with it.
type classState struct {
	frags sync.Map     // room ID → *roomFragments, of the room's latest version seen
	rooms atomic.Int64 // about how many rooms frags holds: a clear racing an insert may miss one
}

// roomFragments caches a room's student fragments for one version, so a
// change reaching a thousand students is rendered once per language.
type roomFragments struct {
	version uint64
	byKey   sync.Map // fragmentKey → *sharedEvent
}

// renderAndKeep renders a fragment the cache missed (cached) and keeps it.
//
// A stream that misses renders it itself rather than wait for another
// stream's render: of the thousands a change wakes, one that blocks goes to
// the back of the run queue and waits for all the others again. A render
// runs to its end unless preempted, so a few streams (about as many as
// run at once) render one fragment at worst, and the first kept is what
// every later stream sends.
func (cs *classState) renderAndKeep(room int64, version uint64, key fragmentKey, render func() (*sharedEvent, error)) (*sharedEvent, error) {
	e, err := render()
	if err != nil { // not kept: the next stream tries again
		return nil, err
	}
	return cs.keep(room, version, key, e), nil
}

// cached is the fragment for version and key when it is rendered already.
func (cs *classState) cached(room int64, version uint64, key fragmentKey) (*sharedEvent, bool) {
	rf, ok := cs.frags.Load(room)
	if !ok || rf.(*roomFragments).version != version {
		return nil, false
	}
	e, ok := rf.(*roomFragments).byKey.Load(key)
	if !ok {
		return nil, false
	}
	return e.(*sharedEvent), true
}

// keep stores a rendered fragment, unless another stream kept one first
// (then that is returned) or the room has moved past version (then e is
// returned, not kept).
func (cs *classState) keep(room int64, version uint64, key fragmentKey, e *sharedEvent) *sharedEvent {
	rf := cs.fragmentsOf(room, version)
	if rf == nil {
		return e
	}
	kept, _ := rf.byKey.LoadOrStore(key, e)
	return kept.(*sharedEvent)
}

// fragmentsOf is the room's cache for version, made when the room had none
// or an older one; nil when the room has moved past version.
func (cs *classState) fragmentsOf(room int64, version uint64) *roomFragments {
	for {
		old, ok := cs.frags.Load(room)
		if ok && old.(*roomFragments).version == version {
			return old.(*roomFragments)
		}
		if ok && old.(*roomFragments).version > version {
			return nil
		}
		rf := &roomFragments{version: version}
		if ok {
			if cs.frags.CompareAndSwap(room, old, rf) {
				return rf
			}
			continue
		}
		if cs.rooms.Load() >= 1000 { // rooms long gone: start afresh rather than grow
			cs.frags.Clear()
			cs.rooms.Store(0)
		}
		if _, loaded := cs.frags.LoadOrStore(room, rf); !loaded {
			cs.rooms.Add(1)
			return rf
		}
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
