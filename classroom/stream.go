package classroom

import (
	"slices"
	"sync"
)

// How many event streams one player, and the host's screens of one room, may
// hold open at once. A phone, a reload and a second tab fit; a script that
// opens a thousand with one rejoin cookie closes its own oldest instead of
// holding a thousand connections.
const (
	MaxPlayerStreams = 3
	MaxHostStreams   = 4
)

// EndReason says why the room ended a stream.
type EndReason int

const (
	Kicked   EndReason = iota + 1 // the host removed the player
	Replaced                      // a newer stream of the same player or host took its place
	Moved                         // another instance owns the room now: reconnect, and reach it
)

// Stream wakes an event stream when there is something new to send.
type Stream struct {
	room     *Room
	c        chan struct{}
	ended    chan struct{}
	once     sync.Once
	reason   EndReason
	playerID int64
	host     bool
}

// C delivers a wake-up when the room changed; read Snapshot for what.
func (s *Stream) C() <-chan struct{} { return s.c }

// Ended is closed when the room ends the stream; Reason says why.
func (s *Stream) Ended() <-chan struct{} { return s.ended }

// Reason is why the stream was ended, valid once Ended is closed.
func (s *Stream) Reason() EndReason {
	<-s.ended
	return s.reason
}

func (s *Stream) end(why EndReason) {
	s.once.Do(func() { s.reason = why; close(s.ended) })
}

func (s *Stream) wake() {
	select {
	case s.c <- struct{}{}:
	default: // already woken; it will read the latest state
	}
}

// Watch opens a stream for the host (playerID 0) or a player. A player's
// first stream after losing all of them counts as a reconnect, which the
// host sees. Past the cap, the owner's oldest stream is ended as Replaced.
func (r *Room) Watch(playerID int64) *Stream {
	s := &Stream{room: r, c: make(chan struct{}, 1), ended: make(chan struct{}), playerID: playerID, host: playerID == 0}
	s.c <- struct{}{} // send the current state first
	r.mu.Lock()
	defer r.mu.Unlock()
	r.streams[s] = struct{}{}
	r.hub.streams.Add(1)
	own := append(r.byOwner[playerID], s)
	limit := MaxPlayerStreams
	if s.host {
		limit = MaxHostStreams
	}
	for len(own) > limit {
		own[0].end(Replaced) // its handler closes it, which drops it from the room
		own = own[1:]
	}
	r.byOwner[playerID] = own
	if p := r.players[playerID]; p != nil {
		p.conns++
		// Any stream after the first is a reconnect, even when the old one
		// is not noticed gone yet: a reload opens the new stream at once.
		if p.seen {
			p.reconnects++
			r.logLocked(p.Nickname, "reconnected")
		}
		p.seen = true
		r.changedLocked(false)
		if p.Kicked {
			s.end(Kicked)
		}
	}
	return s
}

// Close ends the stream; a player with no stream left shows as offline.
func (s *Stream) Close() {
	r := s.room
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.streams[s]; !ok {
		return
	}
	delete(r.streams, s)
	r.hub.streams.Add(-1)
	if own := slices.DeleteFunc(r.byOwner[s.playerID], func(o *Stream) bool { return o == s }); len(own) > 0 {
		r.byOwner[s.playerID] = own
	} else {
		delete(r.byOwner, s.playerID)
	}
	if p := r.players[s.playerID]; p != nil {
		p.conns--
		if p.conns == 0 {
			r.logLocked(p.Nickname, "left")
			r.changedLocked(false)
		}
	}
}
