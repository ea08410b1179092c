package classroom

import (
	"sync"
)

// Stream wakes an event stream when there is something new to send.
type Stream struct {
	room     *Room
	c        chan struct{}
	kicked   chan struct{}
	once     sync.Once
	playerID int64
	host     bool
}

// C delivers a wake-up when the room changed; read Snapshot for what.
func (s *Stream) C() <-chan struct{} { return s.c }

// Kicked is closed when the stream's player is kicked.
func (s *Stream) Kicked() <-chan struct{} { return s.kicked }

func (s *Stream) kick() { s.once.Do(func() { close(s.kicked) }) }

// Watch opens a stream for the host (playerID 0) or a player. A player's
// first stream after losing all of them counts as a reconnect, which the
// host sees.
func (r *Room) Watch(playerID int64) *Stream {
	s := &Stream{room: r, c: make(chan struct{}, 1), kicked: make(chan struct{}), playerID: playerID, host: playerID == 0}
	s.c <- struct{}{} // send the current state first
	r.mu.Lock()
	r.streams[s] = struct{}{}
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
			s.kick()
		}
	}
	r.mu.Unlock()
	r.hub.streams.Add(1)
	return s
}

// Close ends the stream; a player with no stream left shows as offline.
func (s *Stream) Close() {
	r := s.room
	r.mu.Lock()
	if _, ok := r.streams[s]; ok {
		delete(r.streams, s)
		r.hub.streams.Add(-1)
		if p := r.players[s.playerID]; p != nil {
			p.conns--
			if p.conns == 0 {
				r.logLocked(p.Nickname, "left")
				r.changedLocked(false)
			}
		}
	}
	r.mu.Unlock()
}
