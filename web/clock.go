package web

import (
	"strconv"
	"time"
)

// now is the server clock, in UTC, that exams, reviews and rooms are timed
// by: Config.Now when set (tests move it), else the wall clock.
func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// unixMilli is t as milliseconds since the Unix epoch, as the pages' clock
// scripts read it.
func unixMilli(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }
