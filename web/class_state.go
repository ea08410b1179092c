package web

import (
	"encoding/json"
	"strconv"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
)

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
	}{Phase: v.Variant, Index: v.Index}
	if q := v.question(); q != nil && (v.Variant == "question" || v.Variant == "assign") {
		for _, o := range q.In(v.Me.Player.Lang).Options {
			st.Choices = append(st.Choices, o.Letter)
		}
	}
	b, _ := json.Marshal(st) // strings and ints only: it cannot fail
	return sseEvent("state", b)
}

func (s *Server) needClassroom() error {
	if s.Classroom == nil || s.Classes == nil {
		return examsim.E(examsim.ENOTFOUND, "error.page_not_found")
	}
	return nil
}

// teacher returns the signed-in instructor or admin.
func (s *Server) teacher(c echo.Context) (*examsim.Learner, error) {
	if err := s.needClassroom(); err != nil {
		return nil, err
	}
	l := pageOf(c).Learner
	if l == nil || l.Anonymous() {
		return nil, examsim.E(examsim.EUNAUTHORIZED, "class.error_login")
	}
	if !l.CanTeach() {
		return nil, examsim.E(examsim.EFORBIDDEN, "class.error_not_instructor")
	}
	return l, nil
}

func (s *Server) roomOf(c echo.Context) (*classroom.Room, error) {
	if err := s.needClassroom(); err != nil {
		return nil, err
	}
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return nil, examsim.E(examsim.ENOTFOUND, "class.error_session_not_found")
	}
	return s.Classroom.Room(c.Request().Context(), id)
}

// hostRoom returns the room of the run in the URL when the signed-in
// instructor is its host: only they control it or see its results.
func (s *Server) hostRoom(c echo.Context) (*classroom.Room, *examsim.Learner, error) {
	l, err := s.teacher(c)
	if err != nil {
		return nil, nil, err
	}
	room, err := s.roomOf(c)
	if err != nil {
		return nil, nil, err
	}
	if room.Run().HostID != l.ID {
		return nil, nil, examsim.E(examsim.EFORBIDDEN, "class.error_not_host")
	}
	return room, l, nil
}

func roomCookie(id int64) string           { return "examsim_room_" + strconv.FormatInt(id, 10) }
func roomPath(id int64) string             { return "/class/s/" + strconv.FormatInt(id, 10) }
func roomURL(id int64, rest string) string { return roomPath(id) + rest }

// playerRoom returns the room in the URL and the student whose rejoin
// cookie the request carries.
func (s *Server) playerRoom(c echo.Context) (*classroom.Room, examsim.Player, error) {
	room, err := s.roomOf(c)
	if err != nil {
		return nil, examsim.Player{}, err
	}
	ck, err := c.Cookie(roomCookie(room.ID))
	if err != nil {
		return room, examsim.Player{}, examsim.E(examsim.EFORBIDDEN, "class.error_not_in_room")
	}
	p, ok := room.Rejoin(ck.Value)
	if !ok {
		return room, examsim.Player{}, examsim.E(examsim.EFORBIDDEN, "class.error_not_in_room")
	}
	return room, p, nil
}
