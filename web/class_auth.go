package web

import (
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
)

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
