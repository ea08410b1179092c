package web

import (
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
)

var joinCode = regexp.MustCompile(`^[0-9]{6}$`)

// handleJoinForm shows the join form, with the code filled in when the
// student came from the QR code.
func (s *Server) handleJoinForm(c echo.Context) error {
	if err := s.needClassroom(); err != nil {
		return err
	}
	form := joinForm{Code: strings.TrimSpace(c.QueryParam("code")), Lang: pageOf(c).Lang, Kicked: c.QueryParam("kicked") != ""}
	return Render(c, http.StatusOK, JoinPage(form))
}

// handleJoin puts a student in a room. Wrong codes count against the
// client, so codes cannot be guessed; a good code never does.
func (s *Server) handleJoin(c echo.Context) error {
	if err := s.needClassroom(); err != nil {
		return err
	}
	p := pageOf(c)
	form := joinForm{
		Code:     strings.Join(strings.Fields(c.FormValue("code")), ""),
		Nickname: formText(c, "nickname"),
		Lang:     p.Lang,
	}
	if l, ok := examsim.ParseLang(c.FormValue("lang")); ok {
		form.Lang = l
	}
	// failAll shows every problem of the form at once, the first's status.
	failAll := func(errs ...error) error {
		status := 0
		for _, err := range errs {
			if ferr := formError(c, err, func(st int, reason string) error {
				if status == 0 {
					status = st
				}
				form.Errors = append(form.Errors, reason)
				return nil
			}); ferr != nil {
				return ferr
			}
		}
		return Render(c, status, JoinPage(form))
	}
	fail := func(err error) error { return failAll(err) }
	// Every join counts against the client, and so does every wrong code,
	// charged once the code turns out wrong: a room of students joining at
	// once from one school address must not be refused for each other.
	lim, now, client := &s.limits, s.now(), s.clientKey(c.Request())
	if ok, wait := lim.joinClient.Take(client, now); !ok {
		form.Error = p.Catalog.N(p.Lang, "security.join_rate_limited", retryAfter(c, wait))
		return Render(c, http.StatusTooManyRequests, JoinPage(form))
	}
	if ok, wait := lim.joinFailures.Allows(client, now); !ok {
		retryAfter(c, wait)
		return fail(examsim.E(examsim.ERATELIMIT, "join.error_rate_limited"))
	}
	// The code and the nickname are both checked before either is
	// reported, so a student fixes everything in one go.
	var problems []error
	var room *classroom.Room
	if !joinCode.MatchString(form.Code) {
		lim.joinFailures.Take(client, now)
		problems = append(problems, examsim.E(examsim.EINVALID, "join.error_bad_code"))
	} else if r, err := s.Classroom.RoomByCode(c.Request().Context(), form.Code); err != nil {
		if examsim.ErrorCode(err) != examsim.ENOTFOUND {
			return fail(err)
		}
		lim.joinFailures.Take(client, now) // a wrong code; anything else is not the code's fault
		problems = append(problems, err)
	} else {
		room = r
	}
	if _, err := classroom.CleanNickname(form.Nickname); err != nil {
		problems = append(problems, err)
	}
	if len(problems) > 0 {
		return failAll(problems...)
	}
	// A student without an account is the same anonymous learner as in
	// practice, so their classroom answers are on /me and stay with them
	// when they register or log in.
	learner, err := s.ensureLearner(c)
	if err != nil {
		return err
	}
	player, token, err := room.Join(c.Request().Context(), form.Nickname, form.Lang, learner.ID)
	if err != nil {
		return fail(err)
	}
	// The rejoin token lives only under the room's path, so it is sent to
	// this room's pages and nowhere else.
	maxAge := 12 * time.Hour
	if run := room.Run(); run.Mode == examsim.ModeAssignment {
		maxAge = time.Until(run.Deadline) + 24*time.Hour
	}
	s.setCookie(c, roomCookie(room.ID), token, roomPath(room.ID), maxAge)
	s.setLangCookie(c, player.Lang)
	return c.Redirect(http.StatusSeeOther, roomURL(room.ID, "/play"))
}

// joinForm is the join form, kept across a failed submit.
type joinForm struct {
	Code     string
	Nickname string
	Lang     examsim.Lang
	Error    string // already translated
	// Errors are the form's other problems, each already translated: a
	// wrong code and a bad nickname are reported together.
	Errors []string
	Kicked bool
}
